#!/usr/bin/env python3
"""A recording notification server for tests: org.freedesktop.Notifications on a private bus.

Owns the name on the bus at --address (jeepney, from .build/venv), answers GetCapabilities with
--capabilities, and writes each Notify call as one JSON line to --record (image-data as its
numbers and the length of its pixels; its centre pixel's channels as "image-centre"), and each
CloseNotification call as {"call": "CloseNotification", "id": …}. Prints "ready" once it owns the name.

Tests drive it through its own interface, org.paste.TestServer, with dbus-send:
  Invoke(u id, s key)      emits ActionInvoked(id, key), then NotificationClosed(id, 2)
  Close(u id, u reason)    emits NotificationClosed(id, reason)
  Repeat(u id, s key, u n) emits ActionInvoked(id, key) n times, and no closing
Each record names the Notify call's sender (its caller's unique name) as "sender".
--answer KEY invokes KEY on each notification that offers it, right after Notify's reply;
--expire closes each notification at once with reason 1 (expired). --unicast sends the signals
to the notification's sender only, as GNOME Shell does. --stamp adds "received", the
CLOCK_MONOTONIC seconds (time.monotonic) at which each Notify arrived (scripts/bench's notify case).
"""
import argparse
import json
import sys
import time

from jeepney import DBusAddress, HeaderFields, MessageType, new_error, new_method_return, new_signal
from jeepney.bus_messages import message_bus
from jeepney.io.blocking import open_dbus_connection

parser = argparse.ArgumentParser()
parser.add_argument("--address", required=True)
parser.add_argument("--record", required=True)
parser.add_argument("--capabilities", default="actions,body")
parser.add_argument("--answer")
parser.add_argument("--expire", action="store_true")
parser.add_argument("--unicast", action="store_true")
parser.add_argument("--stamp", action="store_true")
options = parser.parse_args()

NAME = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"
emitter = DBusAddress(PATH, interface=NAME)
connection = open_dbus_connection(bus=options.address)
reply = connection.send_and_get_reply(message_bus.RequestName(NAME, 4))  # DO_NOT_QUEUE
if reply.body[0] != 1:
    sys.exit("cannot own " + NAME)
print("ready", flush=True)

senders = {}
next_id = 1


def emit(member, signature, body, id):
    signal = new_signal(emitter, member, signature, body)
    if options.unicast and id in senders:
        signal.header.fields[HeaderFields.destination] = senders[id]
    connection.send(signal)


def plain(value):
    signature, inner = value
    if signature == "(iiibiiay)":
        return list(inner[:6]) + [len(inner[6])]
    return inner


while True:
    message = connection.receive()
    if message.header.message_type != MessageType.method_call:
        continue
    member = message.header.fields.get(HeaderFields.member)
    if member == "GetCapabilities":
        connection.send(new_method_return(message, "as", ([c for c in options.capabilities.split(",") if c],)))
    elif member == "GetServerInformation":
        connection.send(new_method_return(message, "ssss", ("recorder", "paste", "1", "1.2")))
    elif member == "Notify":
        received = time.monotonic()
        app_name, replaces_id, icon, summary, body, actions, hints, timeout = message.body
        id = replaces_id or next_id
        if not replaces_id:
            next_id += 1
        senders[id] = message.header.fields.get(HeaderFields.sender)
        record = {
            "id": id, "app_name": app_name, "replaces_id": replaces_id, "app_icon": icon, "summary": summary,
            "body": body, "actions": list(actions), "hints": {k: plain(v) for k, v in sorted(hints.items())},
            "expire_timeout": timeout, "sender": senders[id],
        }
        if "image-data" in hints:
            width, height, stride, _, _, channels, pixels = hints["image-data"][1]
            at = (height // 2) * stride + (width // 2) * channels
            record["image-centre"] = list(pixels[at:at + channels])
        if options.stamp:
            record["received"] = received
        with open(options.record, "a") as file:
            file.write(json.dumps(record) + "\n")
        connection.send(new_method_return(message, "u", (id,)))
        if options.answer and options.answer in actions[0::2]:
            emit("ActionInvoked", "us", (id, options.answer), id)
            emit("NotificationClosed", "uu", (id, 2), id)
        elif options.expire:
            emit("NotificationClosed", "uu", (id, 1), id)
    elif member == "CloseNotification":
        with open(options.record, "a") as file:
            file.write(json.dumps({"call": "CloseNotification", "id": message.body[0], "sender": message.header.fields.get(HeaderFields.sender)}) + "\n")
        connection.send(new_method_return(message))
        emit("NotificationClosed", "uu", (message.body[0], 3), message.body[0])
    elif member == "Invoke":
        id, key = message.body
        connection.send(new_method_return(message))
        emit("ActionInvoked", "us", (id, key), id)
        emit("NotificationClosed", "uu", (id, 2), id)
    elif member == "Repeat":
        id, key, count = message.body
        connection.send(new_method_return(message))
        for _ in range(count):
            emit("ActionInvoked", "us", (id, key), id)
    elif member == "Close":
        id, reason = message.body
        connection.send(new_method_return(message))
        emit("NotificationClosed", "uu", (id, reason), id)
    else:
        connection.send(new_error(message, "org.freedesktop.DBus.Error.UnknownMethod", "s", (str(member),)))
