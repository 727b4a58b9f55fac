#!/usr/bin/env python3
"""Runs a command with a new pseudo-terminal as its controlling terminal (stdout and stderr on
it, stdin from a file, so stdin is not a terminal) and answers its questions.

    pty_answer.py STDIN_FILE ASKED_MARK ANSWER_FILE -- COMMAND...

When the terminal shows a question (a line ending in ': ' after '[N]o' or 'Service'), the mark
file ASKED_MARK is made; the first line of ANSWER_FILE is then typed once the test writes that
file (after checking what it wants to check while the command waits). Everything the terminal
showed is written to stdout; the exit status is the command's. Every wait is bounded.
"""
import os
import pty
import select
import sys
import time

stdin_file, asked_mark, answer_file = sys.argv[1:4]
command = sys.argv[5:]

pid, terminal = pty.fork()
if pid == 0:
    source = os.open(stdin_file, os.O_RDONLY)
    os.dup2(source, 0)
    os.close(source)
    os.execv(command[0], command)

shown = b""
questions = 0
answered = 0
deadline = time.monotonic() + 90
while time.monotonic() < deadline:
    asked = shown.count(b"[N]o: ") + shown.count(b"\nService: ")
    if asked > questions:
        questions = asked
        with open(asked_mark + str(questions), "w"):
            pass
    if answered < questions and os.path.exists(answer_file + str(answered + 1)):
        with open(answer_file + str(answered + 1), "rb") as answer:
            os.write(terminal, answer.read())
        answered += 1
    ready, _, _ = select.select([terminal], [], [], 0.05)
    if ready:
        try:
            data = os.read(terminal, 4096)
        except OSError:  # EIO: the command closed the terminal (it exited)
            break
        if not data:
            break
        shown += data

_, status = os.waitpid(pid, 0)
sys.stdout.buffer.write(shown)
sys.exit(os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status))
