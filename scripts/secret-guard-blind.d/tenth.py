#!/usr/bin/env python3
"""tenth.py -- blind hold-out corpus for a paste-time secret detector.

positives(half, per_template) -> [(name, context, kind, value, text)]
cleans(half, per_family)      -> [(name, family, text)]

Every random choice for item i of template/family T comes from
random.Random(f"{half}:{T}:{i}").  Every credential is synthetic.
Run `python3 tenth.py` for the self-check (add `--write DIR` to dump files).
"""
import base64
import datetime
import hashlib
import hmac
import json
import random
import string
import struct
import sys
import zlib

HALVES = ("tenth", "twin")

# Contexts whose text carries the standard padded base64 of `value`
# instead of `value` itself.
ENCODED_CONTEXTS = {"k8s-secret-manifest", "filezilla-sitemanager", "curl-verbose-basic"}

LOW = string.ascii_lowercase
UP = string.ascii_uppercase
DIG = string.digits
ALNUM = UP + LOW + DIG
HEXL = "0123456789abcdef"
B64A = UP + LOW + DIG + "+/"
URLA = ALNUM + "-_"
B62 = DIG + UP + LOW
B32A = UP + "234567"
BECH = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"

FIRST = ["alice", "bob", "carlos", "dana", "erik", "fatima", "gwen", "hiro", "ines", "jonas",
         "kemal", "lena", "mateo", "nadia", "oskar", "priya", "quinn", "rosa", "sven", "tariq",
         "uma", "viktor", "wen", "yusuf", "zofia", "anil", "bea", "chidi", "dmitri", "elif",
         "farah", "goran", "helga", "ivo", "jun", "kasia", "luis", "mira", "noor", "pavel"]
LAST = ["novak", "okafor", "schmidt", "tanaka", "silva", "kowalski", "nguyen", "haddad", "larsen",
        "moreau", "rossi", "fischer", "petrov", "garcia", "kim", "obrien", "jansen", "costa",
        "ahmed", "berg", "dubois", "ivanova", "lindqvist", "mendes", "sato", "varga", "wojcik"]
WORDS = ["marigold", "falcon", "harbor", "pepper", "willow", "copper", "thunder", "lantern",
         "biscuit", "meadow", "rocket", "velvet", "canyon", "summit", "juniper", "pickle", "orchid",
         "tundra", "mango", "badger", "cobalt", "ember", "glacier", "hazel", "island", "jasper",
         "kettle", "lemon", "maple", "nebula", "otter", "pirate", "quartz", "raven", "saffron",
         "tiger", "umbrella", "violet", "walnut", "yellow", "zebra", "anchor", "bramble", "cactus",
         "dolphin", "fjord", "gopher", "hollow", "igloo", "jungle", "koala", "lagoon", "mosaic",
         "nutmeg", "olive", "panda", "quill", "river", "spruce", "tulip", "unicorn", "voyage",
         "wombat", "zephyr", "apricot", "beacon", "cricket", "dragon", "eagle", "fossil", "garnet",
         "horizon", "ivory", "jigsaw", "kayak", "lotus", "magnet", "oyster", "puffin", "radar",
         "salmon", "tornado", "vortex", "whisky", "acorn", "blizzard", "comet", "daisy", "falafel",
         "gravel", "hamster", "indigo", "jelly", "kiwi", "llama", "muffin", "noodle", "onyx",
         "parrot", "rhubarb", "sparrow", "turnip", "waffle", "banjo", "cedar", "donut", "ferret",
         "ginger", "heron", "jaguar", "kestrel", "pumpkin", "sunflower", "bluebird", "snowball"]
COMPANIES = ["acme", "globex", "initech", "hooli", "vandelay", "northwind", "contoso", "tyrell",
             "cyberdyne", "soylent", "wonka", "oscorp", "aperture", "pied-piper", "bluth", "massive-dyn",
             "gringotts", "monarch", "dunder", "prestige", "sirius", "umbra", "zorg", "kwik-e"]
TLDS = [".io", ".com", ".net", ".dev", ".co.uk", ".de", ".nl", ".se", ".app", ".cloud"]
SEASONS = ["Spring", "Summer", "Autumn", "Winter", "Fall"]
TZS = ["Europe/Berlin", "Europe/London", "America/New_York", "America/Chicago", "Asia/Tokyo",
       "Europe/Warsaw", "Australia/Sydney", "America/Sao_Paulo", "Europe/Madrid", "Asia/Kolkata"]


def rs(rng, n, alpha=ALNUM):
    return "".join(rng.choice(alpha) for _ in range(n))


def rb(rng, n):
    return bytes(rng.getrandbits(8) for _ in range(n))


def b64(b):
    if isinstance(b, str):
        b = b.encode()
    return base64.b64encode(b).decode()


def b64u(b):
    if isinstance(b, str):
        b = b.encode()
    return base64.urlsafe_b64encode(b).decode().rstrip("=")


def wrap(s, n=64):
    return "\n".join(s[i:i + n] for i in range(0, len(s), n))


def hx(rng, n):
    return rs(rng, n, HEXL)


def uuid4(rng):
    h = list(hx(rng, 32))
    h[12] = "4"
    h[16] = rng.choice("89ab")
    h = "".join(h)
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def first(rng):
    return rng.choice(FIRST)


def fullname(rng):
    return f"{rng.choice(FIRST).capitalize()} {rng.choice(LAST).capitalize()}"


def company(rng):
    return rng.choice(COMPANIES)


def domain(rng):
    return company(rng) + rng.choice(TLDS)


def ip_priv(rng):
    k = rng.randrange(3)
    if k == 0:
        return f"10.{rng.randint(0, 254)}.{rng.randint(0, 254)}.{rng.randint(2, 250)}"
    if k == 1:
        return f"192.168.{rng.randint(0, 254)}.{rng.randint(2, 250)}"
    return f"172.{rng.randint(16, 31)}.{rng.randint(0, 254)}.{rng.randint(2, 250)}"


def ip_pub(rng):
    return f"{rng.choice([23, 34, 45, 51, 62, 77, 81, 88, 91, 104, 141, 151, 178, 185, 195, 212])}." \
           f"{rng.randint(1, 254)}.{rng.randint(1, 254)}.{rng.randint(2, 250)}"


def dt(rng):
    base = datetime.datetime(2023, 1, 1)
    return base + datetime.timedelta(seconds=rng.randint(0, 86400 * 900))


def iso(rng):
    return dt(rng).strftime("%Y-%m-%dT%H:%M:%SZ")


def hostname(rng):
    return f"{rng.choice(['web', 'db', 'app', 'edge', 'nas', 'pve', 'k8s', 'build', 'mon', 'gw', 'api', 'cache'])}-" \
           f"{rng.choice(['', 'prod-', 'stg-', 'dev-', 'lab-'])}{rng.randint(1, 40):02d}"


def b62(n, width=6):
    s = ""
    while n:
        n, r = divmod(n, 62)
        s = B62[r] + s
    return s.rjust(width, "0")


def crc_token(rng, prefix, n=30):
    body = rs(rng, n)
    return prefix + body + b62(zlib.crc32(body.encode()) & 0xFFFFFFFF)


def leet(rng, w):
    table = {"a": "@", "e": "3", "i": "1", "o": "0", "s": "5", "t": "7"}
    out = []
    for c in w:
        if c in table and rng.random() < 0.55:
            out.append(table[c])
        else:
            out.append(c)
    return "".join(out)


def human_pw(rng, syms="!@#%*?.+=-_"):
    """A password a person would choose: words, names, years, a symbol."""
    w1, w2, w3 = rng.sample(WORDS, 3)
    s = rng.choice(syms)
    yr = str(rng.randint(1962, 2024))
    k = rng.randrange(9)
    if k == 0:
        p = w1.capitalize() + w2.capitalize() + str(rng.randint(10, 999)) + s
    elif k == 1:
        p = w1.capitalize() + s + yr + w2
    elif k == 2:
        p = leet(rng, w1).capitalize() + s + leet(rng, w2) + str(rng.randint(1, 99))
    elif k == 3:
        seps = [c for c in "-._" if c in syms] or [""]
        sep = rng.choice(seps)
        p = sep.join([w1, w2, w3]) + str(rng.randint(1, 99))
    elif k == 4:
        p = rng.choice(FIRST).capitalize() + yr + s + w1
    elif k == 5:
        p = rng.choice(SEASONS) + yr + s + w1.capitalize()
    elif k == 6:
        p = w1 + str(rng.randint(100, 9999)) + s + w2.upper()
    elif k == 7:
        p = "My" + w1.capitalize() + "Is" + w2.capitalize() + str(rng.randint(1, 99)) + s
    else:
        p = rng.choice(FIRST).capitalize() + s + rng.choice(LAST).capitalize() + str(rng.randint(1, 99))
    while len(p) < 10:
        p += str(rng.randint(0, 9))
    return p


def gen_pw(rng, n=None, alpha=ALNUM + "!#%*+-_=."):
    n = n or rng.randint(18, 32)
    return rs(rng, 1, ALNUM) + rs(rng, n - 1, alpha)


# ---------------------------------------------------------------- key material

def der_len(n):
    if n < 0x80:
        return bytes([n])
    if n < 0x100:
        return bytes([0x81, n])
    return bytes([0x82, n >> 8, n & 0xFF])


def pem(label, der, width=64):
    return f"-----BEGIN {label}-----\n{wrap(b64(der), width)}\n-----END {label}-----"


def rsa_pkcs1(rng):
    L = rng.choice([0x4A3, 0x4A4, 0x4A5, 0x4A6])
    body = bytes.fromhex("0201000282010100") + bytes([0x80 | rng.getrandbits(7)]) + rb(rng, L - 9)
    return b"\x30\x82" + struct.pack(">H", L) + body


def rsa_pkcs8(rng):
    inner = rsa_pkcs1(rng)
    alg = bytes.fromhex("300d06092a864886f70d0101010500")
    octet = b"\x04" + der_len(len(inner)) + inner
    content = b"\x02\x01\x00" + alg + octet
    return b"\x30" + der_len(len(content)) + content


def ec_pkcs8(rng):
    return (bytes.fromhex("308187020100301306072a8648ce3d020106082a8648ce3d030107046d306b0201010420")
            + rb(rng, 32) + bytes.fromhex("a14403420004") + rb(rng, 64))


def ec_sec1(rng):
    return (bytes.fromhex("30770201010420") + rb(rng, 32)
            + bytes.fromhex("a00a06082a8648ce3d030107a14403420004") + rb(rng, 64))


def ssh_str(b):
    if isinstance(b, str):
        b = b.encode()
    return struct.pack(">I", len(b)) + b


def openssh_ed25519(rng, comment):
    pk = rb(rng, 32)
    seed = rb(rng, 32)
    pub = ssh_str("ssh-ed25519") + ssh_str(pk)
    chk = rb(rng, 4)
    priv = chk + chk + ssh_str("ssh-ed25519") + ssh_str(pk) + ssh_str(seed + pk) + ssh_str(comment)
    pad = 1
    while len(priv) % 8:
        priv += bytes([pad])
        pad += 1
    blob = (b"openssh-key-v1\x00" + ssh_str("none") + ssh_str("none") + ssh_str(b"")
            + struct.pack(">I", 1) + ssh_str(pub) + ssh_str(priv))
    return "-----BEGIN OPENSSH PRIVATE KEY-----\n" + wrap(b64(blob), 70) + "\n-----END OPENSSH PRIVATE KEY-----"


def ssh_pub_ed25519(rng):
    return "ssh-ed25519 " + b64(ssh_str("ssh-ed25519") + ssh_str(rb(rng, 32)))


def ssh_pub_rsa(rng, bits=3072):
    n = b"\x00" + bytes([0x80 | rng.getrandbits(7)]) + rb(rng, bits // 8 - 1)
    return "ssh-rsa " + b64(ssh_str("ssh-rsa") + ssh_str(b"\x01\x00\x01") + ssh_str(n))


def ssh_pub_ecdsa(rng):
    return "ecdsa-sha2-nistp256 " + b64(ssh_str("ecdsa-sha2-nistp256") + ssh_str("nistp256")
                                        + ssh_str(b"\x04" + rb(rng, 64)))


def cert_der(rng):
    L = rng.randint(0x2F0, 0x5A0)
    tbs = (bytes.fromhex("a003020102") + b"\x02\x14" + bytes([rng.getrandbits(7)]) + rb(rng, 19)
           + bytes.fromhex("300d06092a864886f70d01010b0500"))
    rest = rb(rng, L - 4 - len(tbs))
    inner = b"\x30\x82" + struct.pack(">H", L - 4 - 0) + tbs + rest
    return b"\x30\x82" + struct.pack(">H", len(inner)) + inner


def wg_key(rng):
    k = bytearray(rb(rng, 32))
    k[0] &= 248
    k[31] &= 127
    k[31] |= 64
    return b64(bytes(k))


def bech32_polymod(values):
    gen = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3]
    chk = 1
    for v in values:
        b = chk >> 25
        chk = (chk & 0x1ffffff) << 5 ^ v
        for i in range(5):
            chk ^= gen[i] if ((b >> i) & 1) else 0
    return chk


def bech32_encode(hrp, data8, prefix5=()):
    acc = bits = 0
    data = list(prefix5)
    for b in data8:
        acc = (acc << 8) | b
        bits += 8
        while bits >= 5:
            bits -= 5
            data.append((acc >> bits) & 31)
    if bits:
        data.append((acc << (5 - bits)) & 31)
    hv = [ord(x) >> 5 for x in hrp] + [0] + [ord(x) & 31 for x in hrp]
    pm = bech32_polymod(hv + data + [0] * 6) ^ 1
    chk = [(pm >> 5 * (5 - i)) & 31 for i in range(6)]
    return hrp + "1" + "".join(BECH[d] for d in data + chk)


def jwt(rng, claims, alg="HS256", sig_len=32):
    h = b64u(json.dumps({"alg": alg, "typ": "JWT"}, separators=(",", ":")))
    p = b64u(json.dumps(claims, separators=(",", ":")))
    return f"{h}.{p}.{b64u(rb(rng, sig_len))}"


def lines(*parts):
    out = []

    def walk(p):
        if p is None:
            return
        if isinstance(p, (list, tuple)):
            for x in p:
                walk(x)
        else:
            out.append(p)
    walk(parts)
    return "\n".join(out).rstrip("\n") + "\n"


def maybe(rng, p, x):
    return x if rng.random() < p else None


def shuffled(rng, xs):
    xs = list(xs)
    rng.shuffle(xs)
    return xs


# ====================================================================== positives
# Each template: f(rng) -> (value, text)

def p_routeros(rng):
    pw = human_pw(rng, "!#%*+-_.=@")
    ver = f"7.{rng.randint(11, 16)}.{rng.randint(0, 3)}" if rng.random() < 0.7 else f"6.49.{rng.randint(6, 15)}"
    v7 = ver.startswith("7")
    model = rng.choice(["RB5009UG+S+", "hAP ax^2", "hAP ac^2", "RB4011iGS+", "CCR2004-1G-12S+2XS", "hEX S", "cAP ax"])
    net = rng.randint(1, 254)
    ssid = rng.choice([f"{rng.choice(LAST).capitalize()}-Home", f"{company(rng)}-guest", "FBI Van 3", f"{rng.choice(WORDS)}net",
                       f"Casa{rng.choice(LAST).capitalize()}", f"IoT-{rng.randint(2, 9)}G"])
    hdr = [f"# {dt(rng).strftime('%Y-%m-%d %H:%M:%S')} by RouterOS {ver}",
           f"# software id = {rs(rng, 4, UP + DIG)}-{rs(rng, 4, UP + DIG)}", "#",
           f"# model = {model}", f"# serial number = {rs(rng, 12, UP + DIG)}"]
    q = f'"{pw}"' if rng.random() < 0.5 or "#" in pw else pw
    if v7:
        sec = ["/interface wifi security",
               f"add authentication-types=wpa2-psk,wpa3-psk disabled=no name={rng.choice(['home', 'sec1', 'main-wpa3'])} passphrase={q}"]
        ifc = ["/interface wifi",
               f'set [ find default-name=wifi1 ] channel.band=5ghz-ax channel.width=20/40/80mhz configuration.country="{rng.choice(["Germany", "Netherlands", "United Kingdom", "Poland", "United States"])}" .mode=ap .ssid="{ssid}" disabled=no']
    else:
        sec = ["/interface wireless security-profiles",
               f"set [ find default=yes ] authentication-types=wpa2-psk mode=dynamic-keys supplicant-identity=MikroTik wpa2-pre-shared-key={q}"]
        ifc = ["/interface wireless",
               f'set [ find default-name=wlan1 ] band=2ghz-b/g/n channel-width=20/40mhz-XX country={rng.choice(["germany", "poland", "sweden"])} disabled=no distance=indoors frequency=auto mode=ap-bridge ssid="{ssid}" wireless-protocol=802.11']
    body = [["/interface bridge", "add admin-mac=" + ":".join(hx(rng, 2).upper() for _ in range(6)) + " auto-mac=no comment=defconf name=bridge"],
            ["/interface list", "add comment=defconf name=WAN", "add comment=defconf name=LAN"],
            sec, ifc,
            ["/ip pool", f"add name=default-dhcp ranges=192.168.{net}.10-192.168.{net}.254"],
            ["/ip dhcp-server", "add address-pool=default-dhcp interface=bridge name=defconf"],
            ["/ip address", f"add address=192.168.{net}.1/24 comment=defconf interface=bridge network=192.168.{net}.0"],
            ["/ip dns", f"set allow-remote-requests=yes servers={rng.choice(['1.1.1.1,9.9.9.9', '8.8.8.8,8.8.4.4', '194.242.2.2'])}"],
            ["/ip firewall filter",
             'add action=accept chain=input comment="defconf: accept established,related,untracked" connection-state=established,related,untracked',
             'add action=drop chain=input comment="defconf: drop invalid" connection-state=invalid',
             'add action=drop chain=input comment="defconf: drop all not coming from LAN" in-interface-list=!LAN'],
            ["/ip firewall nat", 'add action=masquerade chain=srcnat comment="defconf: masquerade" ipsec-policy=out,none out-interface-list=WAN'],
            ["/system clock", f"set time-zone-name={rng.choice(TZS)}"],
            ["/system identity", f"set name={rng.choice(['gw', 'core', 'MikroTik', 'router-' + rng.choice(LAST)])}"]]
    if rng.random() < 0.4:
        body.insert(rng.randint(4, 8), ["/ip service", "set telnet disabled=yes", "set ftp disabled=yes", "set api disabled=yes"])
    pre = maybe(rng, 0.5, rng.choice(["[admin@MikroTik] > /export hide-sensitive", "[admin@gw] > export terse",
                                      "anyone know why my 5GHz clients keep dropping? export below:"]))
    if pre and "hide-sensitive" in pre:
        pre = "[admin@MikroTik] > /export"
    return pw, lines(pre, hdr, body)


def p_cisco(rng):
    pw = human_pw(rng, "!#%*+-_.@")
    host = f"{rng.choice(['SW', 'RTR', 'CORE', 'ACC'])}-{rng.choice(['B1', 'HQ', 'DC', 'FL2'])}-{rng.randint(1, 24):02d}"
    user = rng.choice(["admin", "netops", "cisco", first(rng), "ops"])
    ifs = []
    for n in range(1, rng.randint(3, 7)):
        ifs += [f"interface GigabitEthernet1/0/{n}",
                f" description {rng.choice(['AP', 'printer', 'uplink', 'desk', 'cam', 'phone'])}-{rng.randint(1, 40)}",
                f" switchport access vlan {rng.choice([10, 20, 30, 99])}", " switchport mode access",
                maybe(rng, 0.5, " spanning-tree portfast"), "!"]
    txt = lines(maybe(rng, 0.6, f"{host}#show running-config"), "Building configuration...", "",
                f"Current configuration : {rng.randint(3000, 12000)} bytes", "!",
                f"! Last configuration change at {dt(rng).strftime('%H:%M:%S UTC %a %b %d %Y')} by {user}",
                f"version {rng.choice(['15.2', '16.12', '17.3', '17.9'])}",
                "service timestamps debug datetime msec", "service timestamps log datetime msec",
                "no service password-encryption", "!", f"hostname {host}", "!",
                "boot-start-marker", "boot-end-marker", "!",
                f"username {user} privilege 15 password 0 {pw}",
                "aaa new-model", "aaa authentication login default local", "!",
                f"ip domain-name {domain(rng)}", "ip ssh version 2", "!", ifs,
                f"interface Vlan{rng.choice([1, 10, 99])}", f" ip address {ip_priv(rng)} 255.255.255.0", "!",
                f"ip default-gateway {ip_priv(rng)}", "!",
                "line con 0", " logging synchronous", "line vty 0 4", " login local", " transport input ssh",
                "line vty 5 15", " login local", " transport input ssh", "!", "end")
    return pw, txt


def p_wpa(rng):
    pw = human_pw(rng, "!#%*+-_.@?")
    if rng.random() < 0.3:
        pw = " ".join(rng.sample(WORDS, 3)) + " " + str(rng.randint(1, 99))
    ssid = rng.choice([f"{rng.choice(LAST).capitalize()}_WiFi", f"TP-Link_{hx(rng, 4).upper()}", f"{company(rng)}-staff",
                       f"FRITZ!Box 7590 {rs(rng, 2, UP)}", f"Vodafone-{rs(rng, 6, UP + DIG)}", f"{rng.choice(WORDS)}-5G"])
    blocks = [["network={", f'\tssid="{ssid}"', f'\tpsk="{pw}"', "\tkey_mgmt=WPA-PSK",
               maybe(rng, 0.5, f"\tpriority={rng.randint(1, 10)}"), maybe(rng, 0.3, "\tscan_ssid=1"), "}"]]
    if rng.random() < 0.6:
        blocks.append(["network={", f'\tssid="{rng.choice(["Cafe", "Library", "Hotel", "Airport"])}-{rng.choice(["Free", "Guest", "Open"])}"',
                       "\tkey_mgmt=NONE", "\tpriority=0", "}"])
    rng.shuffle(blocks)
    out = []
    for b in blocks:
        out += b + [""]
    pre = rng.choice([["$ sudo cat /etc/wpa_supplicant/wpa_supplicant.conf"],
                      ["pi zero won't join the network after reflashing, conf is:", ""],
                      ["# /boot/wpa_supplicant.conf"], []])
    return pw, lines(pre, "ctrl_interface=DIR=/var/run/wpa_supplicant GROUP=netdev", "update_config=1",
                     f"country={rng.choice(['GB', 'DE', 'US', 'NL', 'FR', 'AU'])}", "", out)


def p_minecraft(rng):
    pw = human_pw(rng)
    kv = {"enable-jmx-monitoring": "false", "rcon.port": str(rng.choice([25575, 25576, 27015])),
          "level-seed": str(rng.randint(-2 ** 40, 2 ** 40)) if rng.random() < 0.5 else "",
          "gamemode": rng.choice(["survival", "creative"]), "enable-command-block": rng.choice(["false", "true"]),
          "enable-query": "false", "level-name": rng.choice(["world", "smp", "hardcore", rng.choice(WORDS)]),
          "motd": rng.choice(["A Minecraft Server", f"\\u00A7a{rng.choice(WORDS).capitalize()} SMP", f"{rng.choice(LAST)}'s server"]),
          "query.port": "25565", "pvp": rng.choice(["true", "false"]), "difficulty": rng.choice(["easy", "normal", "hard"]),
          "network-compression-threshold": "256", "max-tick-time": "60000", "require-resource-pack": "false",
          "use-native-transport": "true", "max-players": str(rng.choice([10, 20, 50])), "online-mode": "true",
          "enable-status": "true", "allow-flight": rng.choice(["false", "true"]), "view-distance": str(rng.randint(6, 16)),
          "server-ip": "", "resource-pack-prompt": "", "allow-nether": "true", "server-port": "25565",
          "enable-rcon": "true", "sync-chunk-writes": "true", "op-permission-level": "4", "prevent-proxy-connections": "false",
          "hide-online-players": "false", "resource-pack": "", "entity-broadcast-range-percentage": "100",
          "simulation-distance": str(rng.randint(6, 12)), "rcon.password": pw, "player-idle-timeout": "0",
          "force-gamemode": "false", "rate-limit": "0", "hardcore": "false", "white-list": rng.choice(["true", "false"]),
          "broadcast-console-to-ops": "true", "spawn-npcs": "true", "spawn-animals": "true", "function-permission-level": "2",
          "level-type": "minecraft\\:normal", "text-filtering-config": "", "spawn-monsters": "true",
          "enforce-whitelist": "false", "spawn-protection": str(rng.choice([0, 16])), "max-world-size": "29999984"}
    keys = list(kv)
    keep = [k for k in keys if k == "rcon.password" or k == "enable-rcon" or rng.random() < 0.75]
    if rng.random() < 0.5:
        rng.shuffle(keep)
    d = dt(rng)
    return pw, lines("#Minecraft server properties", "#" + d.strftime("%a %b %d %H:%M:%S UTC %Y"),
                     [f"{k}={kv[k]}" for k in keep])


def p_srcds(rng):
    pw = human_pw(rng, "!#%*+-_.@=")
    game = rng.choice(["cs2", "tf2", "gmod", "l4d2", "csgo"])
    L = [f"// server.cfg -- {game} {rng.choice(['community', 'pug', 'surf', 'zombies', 'retake'])} server",
         f'hostname "{rng.choice(["[EU]", "[NA]", "[DE]", "[AU]"])} {rng.choice(WORDS).capitalize()} {rng.choice(["Pub", "Retakes", "Surf", "Casual"])} #{rng.randint(1, 9)}"',
         f'rcon_password "{pw}"', 'sv_password ""', f"sv_region {rng.randint(0, 7)}", "sv_lan 0",
         f"sv_maxrate {rng.choice([0, 786432])}", f"sv_minrate {rng.choice([64000, 128000])}",
         f"mp_timelimit {rng.choice([20, 30, 45])}", f"mp_maxrounds {rng.choice([16, 24, 30])}",
         "sv_alltalk 0", "sv_cheats 0", f"sv_pure {rng.choice([0, 1, 2])}",
         "log on", "sv_logbans 1", "sv_logecho 1", "sv_logfile 1",
         f'sv_tags "{",".join(rng.sample(["casual", "friendly", "nopinion", "128tick", "ranked", "vanilla", "fastdl"], 3))}"',
         f'sv_downloadurl "https://fastdl.{domain(rng)}/{game}/"', "sv_allowdownload 1", "sv_allowupload 0",
         "exec banned_user.cfg", "exec banned_ip.cfg", "writeid", "writeip"]
    head, rest = L[:3], L[3:]
    rng.shuffle(rest)
    rest = rest[:rng.randint(10, len(rest))]
    ins = rng.randint(0, len(rest))
    rest[ins:ins] = [maybe(rng, 0.5, "// rcon pass changed after the last incident, dont share")]
    return pw, lines(head[:2], rest[:3], head[2], rest[3:])


def p_compose_nextcloud(rng):
    pw = human_pw(rng, "!*-_.#%+@")
    u = rng.choice(["nextcloud", "nc", "ncuser", first(rng)])
    db = rng.choice(["nextcloud", "nc_db", "cloud"])
    ver = rng.choice(["27", "28", "29-apache", "stable", "30"])
    img = rng.choice(["mariadb:10.11", "mariadb:11.4", "mysql:8.0"])
    txt = lines(maybe(rng, 0.5, "version: '3.8'"), "",
                "x-db-env: &dbenv", f"  MYSQL_DATABASE: {db}", f"  MYSQL_USER: {u}", f"  MYSQL_PASSWORD: {pw}",
                "  MYSQL_HOST: db", "", "services:", "  db:", f"    image: {img}", "    restart: unless-stopped",
                "    command: --transaction-isolation=READ-COMMITTED --log-bin=binlog --binlog-format=ROW",
                "    volumes:", f"      - {rng.choice(['./db', '/srv/nextcloud/db', 'db'])}:/var/lib/mysql",
                "    environment:", "      <<: *dbenv", "      MYSQL_RANDOM_ROOT_PASSWORD: \"yes\"", "",
                maybe(rng, 0.7, "  redis:"), maybe(rng, 0.7, "    image: redis:alpine"), maybe(rng, 0.7, "    restart: unless-stopped"), "",
                "  app:", f"    image: nextcloud:{ver}", "    restart: unless-stopped", "    ports:",
                f"      - {rng.choice(['8080', '8081', '127.0.0.1:8888'])}:80", "    depends_on:", "      - db",
                "    volumes:", f"      - {rng.choice(['./nextcloud', '/srv/nextcloud/html', 'nextcloud'])}:/var/www/html",
                f"      - {rng.choice(['/mnt/tank/cloud', '/data/nc', './data'])}:/var/www/html/data",
                "    environment:", "      <<: *dbenv", "      REDIS_HOST: redis",
                f"      NEXTCLOUD_TRUSTED_DOMAINS: cloud.{domain(rng)}",
                f"      OVERWRITEPROTOCOL: https", maybe(rng, 0.5, f"      PHP_MEMORY_LIMIT: {rng.choice(['512M', '1G'])}"))
    return pw, txt


def p_ansible(rng):
    pw = human_pw(rng)
    grp = rng.choice(["webservers", "dbservers", "all", "proxmox", "k3s_nodes", "monitoring"])
    if rng.random() < 0.55:
        txt = lines("---", f"# group_vars/{grp}.yml", f"ansible_user: {rng.choice(['deploy', 'ansible', 'ubuntu', first(rng)])}",
                    "ansible_become: true", "ansible_become_method: sudo", f"ansible_become_password: {pw}",
                    maybe(rng, 0.5, f"ansible_python_interpreter: /usr/bin/python3"), "",
                    "ntp_servers:", "  - 0.pool.ntp.org", "  - 1.pool.ntp.org",
                    f"timezone: {rng.choice(TZS)}", f"nginx_worker_processes: {rng.choice(['auto', '4'])}",
                    f"node_exporter_version: 1.{rng.randint(5, 8)}.{rng.randint(0, 2)}",
                    "unattended_upgrades: true", f"ssh_port: {rng.choice([22, 2222, 22022])}")
    else:
        hosts = [f"{hostname(rng)} ansible_host={ip_priv(rng)}" for _ in range(rng.randint(2, 5))]
        txt = lines(f"# inventory/{rng.choice(['prod', 'lab', 'home', 'staging'])}.ini", f"[{grp}]", hosts, "",
                    f"[{grp}:vars]", f"ansible_user={rng.choice(['deploy', 'ansible', 'pi', first(rng)])}",
                    f"ansible_become_pass={pw}", "ansible_ssh_common_args='-o StrictHostKeyChecking=no'", "",
                    "[all:vars]", "ansible_python_interpreter=/usr/bin/python3")
    return pw, txt


def p_wpconfig(rng):
    pw = human_pw(rng)
    db = rng.choice(["wordpress", "wp_" + rng.choice(WORDS), "blog", rng.choice(LAST) + "_wp"])
    u = rng.choice(["wpuser", "wp_admin", db[:12], "wordpress"])
    salts = ["AUTH_KEY", "SECURE_AUTH_KEY", "LOGGED_IN_KEY", "NONCE_KEY", "AUTH_SALT", "SECURE_AUTH_SALT", "LOGGED_IN_SALT", "NONCE_SALT"]
    q = rng.choice(["'", "'"])
    txt = lines("<?php", "/**", " * The base configuration for WordPress", " *", " * @package WordPress", " */", "",
                "// ** Database settings - You can get this info from your web host ** //",
                f"define( 'DB_NAME', '{db}' );", f"define( 'DB_USER', '{u}' );", f"define( 'DB_PASSWORD', {q}{pw}{q} );",
                f"define( 'DB_HOST', '{rng.choice(['localhost', '127.0.0.1', 'mysql', ip_priv(rng)])}' );",
                "define( 'DB_CHARSET', 'utf8mb4' );", "define( 'DB_COLLATE', '' );", "",
                [f"define( '{s}',{' ' * (17 - len(s))}'put your unique phrase here' );" for s in salts], "",
                f"$table_prefix = '{rng.choice(['wp_', 'wp_', 'wp' + hx(rng, 3) + '_'])}';", "",
                f"define( 'WP_DEBUG', {rng.choice(['false', 'true'])} );", maybe(rng, 0.4, "define( 'WP_DEBUG_LOG', true );"),
                maybe(rng, 0.4, "define( 'FS_METHOD', 'direct' );"), "",
                "if ( ! defined( 'ABSPATH' ) ) {", "\tdefine( 'ABSPATH', __DIR__ . '/' );", "}", "",
                "require_once ABSPATH . 'wp-settings.php';")
    return pw, txt


def p_slack(rng):
    pw = human_pw(rng)
    a, b, c = rng.sample(FIRST, 3)
    svc = rng.choice(["grafana admin", "the staging box", "jenkins", "the NAS", "wifi in the new office", "the shared mailbox",
                      "proxmox root", "the vendor portal", "pgadmin", "the router"])
    t0 = dt(rng)

    def tm(k):
        return (t0 + datetime.timedelta(minutes=k)).strftime("%H:%M" if fmt == 0 else "%I:%M %p")
    fmt = rng.randrange(2)
    msg = rng.choice([f"pw for {svc} is {pw} -- change it after you log in pls",
                      f"{svc}: user `{rng.choice(['admin', 'ops', first(rng)])}` / `{pw}`",
                      f"it's {pw}",
                      f"password is {pw} (capital first letter)",
                      f"try {pw} , that's what we set last quarter",
                      f"ok reset it, new one: {pw}"])
    pre = rng.choice([f"hey does anyone have the login for {svc}?", f"@{b} can you send me creds for {svc}, locked out again",
                      f"what's the password for {svc} again?"])
    conv = [(b if rng.random() < 0.5 else c, pre), (a, rng.choice(["one sec", "lemme check 1pw", "yeah hold on", "sure"])),
            (a, msg), (b, rng.choice(["thx!", "in, thanks", "🙏", "worked"])),
            (c, maybe(rng, 0.5, rng.choice(["we really should put that in the vault", "can you delete that msg after", "lol posting passwords in #general again"])))]
    out = []
    if rng.random() < 0.4 or fmt == 0:
        out.append(f"#{rng.choice(['ops', 'it-help', 'general', 'homelab', 'infra'])} — {t0.strftime('%A, %B %d')}")
    for k, (who, m) in enumerate(conv):
        if m is None:
            continue
        if fmt == 0:
            out.append(f"[{tm(k * 2)}] {who}: {m}")
        else:
            out += [f"{who.capitalize()}  {tm(k * 2)}", m, ""]
    return pw, lines(out)


def p_helpdesk_email(rng):
    pw = human_pw(rng)
    u = f"{first(rng)}.{rng.choice(LAST)}"
    dom = domain(rng)
    d = dt(rng)
    tick = f"{rng.choice(['INC', 'REQ', 'HD', 'SR'])}{rng.randint(100000, 999999)}"
    body = rng.choice([
        ["Hi {n},", "", f"As requested in ticket {tick}, your account has been reset.", "",
         f"Username: {u}", f"Temporary password: {pw}", "",
         "You will be asked to change it at first sign-in. Please don't reply with your new password."],
        ["Hello,", "", f"The VPN account for {u} is ready. Log in with the password below and set up MFA within 24h:", "",
         f"    {pw}", "", f"Ref: {tick}"],
        ["Hi {n},", "", f"Per our call, I set the local admin password on your laptop to {pw} so you can install the printer driver.",
         "It will be rotated automatically by LAPS tonight.", "", f"Ticket: {tick}"]])
    body = [x.replace("{n}", u.split(".")[0].capitalize()) for x in body]
    return pw, lines(f"From: IT Service Desk <servicedesk@{dom}>", f"To: {u}@{dom}",
                     f"Subject: {rng.choice(['RE: ', '', 'Fwd: '])}[{tick}] {rng.choice(['Password reset', 'Account access', 'VPN access', 'Locked out'])}",
                     f"Date: {d.strftime('%a, %d %b %Y %H:%M:%S')} {rng.choice(['+0000', '+0100', '-0500', '+0200'])}",
                     f"Message-ID: <{hx(rng, 16)}.{rng.randint(1000, 9999)}@{rng.choice(['mail', 'smtp', 'exch01'])}.{dom}>",
                     "MIME-Version: 1.0", "Content-Type: text/plain; charset=utf-8", "", body, "",
                     "Kind regards,", f"{fullname(rng)}", "IT Service Desk", f"ext. {rng.randint(2000, 7999)}")


def p_bash_history(rng):
    pw = human_pw(rng, "!@#%*?.+=-_$")
    db = rng.choice(["shop", "wordpress", "app_prod", "crm", "billing", "nextcloud"])
    u = rng.choice(["root", "admin", "app", db[:6]])
    noise = ["ls -la", "cd /var/www", "sudo systemctl status nginx", "df -h", "free -m", "htop", "cd ..",
             "tail -f /var/log/syslog", "sudo apt update && sudo apt upgrade -y", "git pull", "docker ps",
             "vim .env", "sudo journalctl -u mysql --since today", "ls /backups", "du -sh *", "exit",
             f"ssh {first(rng)}@{ip_priv(rng)}", "crontab -l", "history | grep mysql", "uptime", "whoami",
             f"scp dump.sql {first(rng)}@{hostname(rng)}:/tmp/", "sudo -i", "clear"]
    cmd = rng.choice([f"mysql -u {u} -p'{pw}' {db}", f"mysqldump -u{u} -p'{pw}' --single-transaction {db} > /backups/{db}-$(date +%F).sql",
                      f"mysql -h {ip_priv(rng)} -u {u} --password='{pw}' -e 'SHOW PROCESSLIST'",
                      f"mysqladmin -u {u} -p'{pw}' status"])
    n = rng.randint(8, 30)
    cmds = [rng.choice(noise) for _ in range(n)]
    cmds.insert(rng.randint(2, n - 1), cmd)
    if rng.random() < 0.5:
        base = rng.randint(1600000000, 1720000000)
        out = []
        for k, c in enumerate(cmds):
            out += [f"#{base + k * rng.randint(5, 400)}", c]
        return pw, lines(out)
    if rng.random() < 0.5:
        b0 = rng.randint(100, 1900)
        return pw, lines([f"{k + b0:5d}  {c}" for k, c in enumerate(cmds)])
    return pw, lines(cmds)


def p_powershell(rng):
    pw = human_pw(rng)
    u = first(rng)
    dom = rng.choice(["CORP", "AD", company(rng).upper()[:8].replace("-", "")])
    host = f"{rng.choice(['WS', 'LT', 'PC'])}-{rng.randint(100, 9999):04d}"
    d = dt(rng)
    svc = rng.choice(["svc_backup", "svc_sql", "adm_" + u, "svc_deploy"])
    target = rng.choice(["FS01", "SQL02", "DC01", "APP-" + str(rng.randint(1, 9))])
    txt = lines("**********************", "Windows PowerShell transcript start", f"Start time: {d.strftime('%Y%m%d%H%M%S')}",
                f"Username: {dom}\\{u}", f"RunAs User: {dom}\\{u}", f"Configuration Name: ",
                f"Machine: {host} (Microsoft Windows NT 10.0.{rng.choice([19045, 22621, 22631, 20348])}.0)",
                "Host Application: C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe",
                f"Process ID: {rng.randint(1000, 30000)}", "PSVersion: 5.1.19041.4291", "**********************",
                f"PS C:\\Users\\{u}> $pw = ConvertTo-SecureString '{pw}' -AsPlainText -Force",
                f"PS C:\\Users\\{u}> $cred = New-Object System.Management.Automation.PSCredential('{dom}\\{svc}', $pw)",
                rng.choice([f"PS C:\\Users\\{u}> Invoke-Command -ComputerName {target} -Credential $cred -ScriptBlock {{ Get-Service | ? Status -eq 'Stopped' }}",
                            f"PS C:\\Users\\{u}> Enter-PSSession -ComputerName {target} -Credential $cred",
                            f"PS C:\\Users\\{u}> New-PSDrive -Name X -PSProvider FileSystem -Root \\\\{target}\\share$ -Credential $cred"]),
                rng.choice(["", "Enter-PSSession : Connecting to remote server failed with the following error message : WinRM cannot complete the operation.",
                            f"[{target}]: PS C:\\Users\\{svc}\\Documents> "]),
                maybe(rng, 0.6, "    + CategoryInfo          : InvalidArgument: (FS01:String) [Enter-PSSession], PSRemotingTransportException"),
                maybe(rng, 0.6, "    + FullyQualifiedErrorId : CreateRemoteRunspaceFailed"),
                f"PS C:\\Users\\{u}> Stop-Transcript", "**********************", "Windows PowerShell transcript end",
                f"End time: {(d + datetime.timedelta(minutes=rng.randint(1, 50))).strftime('%Y%m%d%H%M%S')}", "**********************")
    return pw, txt


def p_android_signing(rng):
    pw = human_pw(rng)
    alias = rng.choice(["upload", "release", "key0", rng.choice(WORDS)])
    path = rng.choice(["../keystores/upload.jks", "/Users/" + first(rng) + "/keys/release.keystore", "app/release.jks", "../android.keystore"])
    kv = [f"storePassword={pw}", f"keyAlias={alias}", f"storeFile={path}"]
    if rng.random() < 0.6:
        kv.append(f"keyPassword={pw}")
    rng.shuffle(kv)
    if rng.random() < 0.5:
        txt = lines("# key.properties (do not commit)", kv)
        pre = rng.choice([["flutter build appbundle fails with 'Keystore was tampered with, or password was incorrect'", "android/key.properties:", ""],
                          ["$ cat android/key.properties"], []])
        return pw, lines(pre, txt)
    gp = ["org.gradle.jvmargs=-Xmx2048m -Dfile.encoding=UTF-8", "android.useAndroidX=true", "android.enableJetifier=true",
          "kotlin.code.style=official", "android.nonTransitiveRClass=true"]
    gp = gp[:rng.randint(2, 5)]
    return pw, lines("# gradle.properties", gp, "", "# release signing", [f"RELEASE_{k.split('=')[0].upper()}={k.split('=', 1)[1]}" for k in kv])


def p_filezilla(rng):
    pw = human_pw(rng, "!#%*+-_.@=?")
    u = rng.choice([first(rng), f"{first(rng)}@{domain(rng)}", "ftpuser", "webmaster", "u" + str(rng.randint(10000, 99999))])
    servers = []
    main = [f"            <Host>{rng.choice(['ftp.', 'files.', 'www.', ''])}{domain(rng)}</Host>",
            f"            <Port>{rng.choice([21, 21, 22, 2121])}</Port>", f"            <Protocol>{rng.choice([0, 1, 4])}</Protocol>",
            "            <Type>0</Type>", f"            <User>{u}</User>",
            f'            <Pass encoding="base64">{b64(pw)}</Pass>', "            <Logontype>1</Logontype>",
            "            <PasvMode>MODE_DEFAULT</PasvMode>", "            <EncodingType>Auto</EncodingType>",
            "            <BypassProxy>0</BypassProxy>", f"            <Name>{rng.choice(['Website', 'Client site', 'Old host', 'Hosting'])} {rng.randint(1, 9)}</Name>",
            "            <SyncBrowsing>0</SyncBrowsing>", "            <DirectoryComparison>0</DirectoryComparison>"]
    servers.append(main)
    for _ in range(rng.randint(0, 2)):
        servers.append([f"            <Host>{ip_pub(rng)}</Host>", "            <Port>22</Port>", "            <Protocol>1</Protocol>",
                        "            <Type>0</Type>", f"            <User>{first(rng)}</User>", "            <Logontype>2</Logontype>",
                        "            <PasvMode>MODE_DEFAULT</PasvMode>", "            <EncodingType>Auto</EncodingType>",
                        "            <BypassProxy>0</BypassProxy>", f"            <Name>{rng.choice(WORDS)}</Name>",
                        "            <SyncBrowsing>0</SyncBrowsing>", "            <DirectoryComparison>0</DirectoryComparison>"])
    rng.shuffle(servers)
    body = []
    for s in servers:
        body += ["        <Server>"] + s + ["        </Server>"]
    return pw, lines('<?xml version="1.0" encoding="UTF-8" standalone="yes" ?>',
                     f'<FileZilla3 version="3.{rng.randint(60, 67)}.{rng.randint(0, 4)}" platform="{rng.choice(["windows", "mac", "*nix"])}">',
                     "    <Servers>", body, "    </Servers>", "</FileZilla3>")


def p_dbt(rng):
    pw = human_pw(rng)
    proj = rng.choice(["analytics", "jaffle_shop", "warehouse", "marketing_dbt", "finance"])
    u = rng.choice([first(rng).upper(), f"{first(rng)}_{rng.choice(LAST)}", "DBT_SVC"])
    if rng.random() < 0.5:
        out = ["      type: snowflake", f"      account: {rs(rng, 2, LOW)}{rng.randint(10000, 99999)}.{rng.choice(['eu-west-1', 'us-east-2.aws', 'west-europe.azure'])}",
               f"      user: {u}", f"      password: {pw}", f"      role: {rng.choice(['TRANSFORMER', 'DBT_ROLE', 'SYSADMIN'])}",
               f"      database: {proj.upper()}", f"      warehouse: {rng.choice(['TRANSFORMING', 'COMPUTE_WH', 'DBT_WH'])}",
               f"      schema: dbt_{first(rng)}", f"      threads: {rng.choice([4, 8, 16])}", "      client_session_keep_alive: False"]
    else:
        out = [f"      type: {rng.choice(['postgres', 'redshift'])}", f"      host: {rng.choice([ip_priv(rng), 'warehouse.' + domain(rng)])}",
               f"      user: {u.lower()}", f"      password: {pw}", f"      port: {rng.choice([5432, 5439])}",
               f"      dbname: {proj}", f"      schema: dbt_{first(rng)}", f"      threads: {rng.choice([4, 8])}",
               "      keepalives_idle: 0"]
    head = out[:1]
    rest = out[1:]
    rng.shuffle(rest)
    return pw, lines(maybe(rng, 0.5, "# ~/.dbt/profiles.yml"), f"{proj}:", "  target: dev", "  outputs:", "    dev:", head, rest,
                     maybe(rng, 0.4, "config:"), maybe(rng, 0.4, "  send_anonymous_usage_stats: false"))


def p_asterisk(rng):
    pw = human_pw(rng, "!#%*+-_.@")
    ext = str(rng.randint(100, 9999))
    if rng.random() < 0.5:
        txt = lines("; pjsip.conf", "[transport-udp]", "type=transport", "protocol=udp", f"bind=0.0.0.0:{rng.choice([5060, 5160])}",
                    maybe(rng, 0.5, f"external_media_address={ip_pub(rng)}"), maybe(rng, 0.5, f"external_signaling_address={ip_pub(rng)}"),
                    "", f"[{ext}]", "type=endpoint", f"context={rng.choice(['from-internal', 'internal', 'phones'])}", "disallow=all",
                    f"allow={rng.choice(['ulaw', 'alaw', 'g722,ulaw', 'opus,alaw'])}", f"auth={ext}", f"aors={ext}",
                    f'callerid="{fullname(rng)}" <{ext}>', maybe(rng, 0.5, "direct_media=no"), "",
                    f"[{ext}]", "type=auth", "auth_type=userpass", f"password={pw}", f"username={ext}", "",
                    f"[{ext}]", "type=aor", f"max_contacts={rng.randint(1, 3)}", maybe(rng, 0.5, "remove_existing=yes"))
    else:
        prov = rng.choice(["sipgate", "voipms", "telnyx", "easybell", "andrews"])
        txt = lines("; sip.conf (chan_sip, yes I know)", "[general]", "context=default", "allowguest=no", "srvlookup=yes",
                    f"register => {ext}:{pw}@{prov}.{rng.choice(['de', 'com', 'net'])}/{ext}" if rng.random() < 0.3 else f"; registration via peer below",
                    "", f"[{prov}]", "type=peer", f"host={prov}.{rng.choice(['de', 'com', 'net'])}",
                    f"defaultuser={ext}", f"fromuser={ext}", *( [f"secret={pw}"] ), "insecure=invite", "qualify=yes",
                    "nat=force_rport,comedia", "disallow=all", "allow=alaw", f"context=from-{prov}")
        if txt.count(pw) > 1:
            txt = txt.replace(f"secret={pw}\n", "")
    return pw, txt


def p_ipmitool(rng):
    pw = human_pw(rng, "!#%*+-_.@=?")
    h = ip_priv(rng)
    u = rng.choice(["ADMIN", "root", "admin", "ipmi"])
    p = rng.choice(["$ ", f"[{first(rng)}@{hostname(rng)} ~]$ ", "root@pve:~# "])
    cmd = rng.choice(["chassis power status", "sdr type Fan", "sel list last 8", "lan print 1", "sensor reading 'CPU Temp'"])
    outs = {"chassis power status": ["Chassis Power is on", f"{p}ipmitool -I lanplus -H {h} -U {u} -E chassis status | head -3", "System Power         : on", "Power Overload       : false", "Main Power Fault     : false"],
            "sdr type Fan": [f"FAN{k}             | {hx(rng, 2).upper()}h | ok  | 29.{k} | {rng.randint(9, 30) * 100} RPM" for k in range(1, rng.randint(4, 8))],
            "sel list last 8": [f"{k:>4x} | {dt(rng).strftime('%m/%d/%Y | %H:%M:%S')} | {rng.choice(['Power Supply PS2 Status', 'Fan FAN3', 'Temperature CPU1 Temp', 'Memory'])} | {rng.choice(['Failure detected', 'Lower Critical going low', 'Correctable ECC', 'Upper Non-critical going high'])} | Asserted" for k in range(1, rng.randint(4, 9))],
            "lan print 1": ["Set in Progress         : Set Complete", "IP Address Source       : Static Address", f"IP Address              : {h}",
                            "Subnet Mask             : 255.255.255.0", "MAC Address             : " + ":".join(hx(rng, 2) for _ in range(6)),
                            f"Default Gateway IP      : {h.rsplit('.', 1)[0]}.1", "802.1q VLAN ID          : Disabled"],
            "sensor reading 'CPU Temp'": [f"CPU Temp         | {rng.randint(35, 88)}", f"{rng.choice(['$', '#'])} # still climbing", f"CPU Temp         | {rng.randint(60, 95)}"]}
    pre = rng.choice([[], ["fans on the supermicro go to 100% every few mins, here's what ipmi says:", ""], ["# BMC check"]])
    flag = rng.choice([f"-P '{pw}'", f'-P "{pw}"', f"-P {pw}"]) if all(c not in pw for c in "!#?*") else rng.choice([f"-P '{pw}'", f'-P "{pw}"'])
    return pw, lines(pre, f"{p}ipmitool -I lanplus -H {h} -U {u} {flag} {cmd}", outs[cmd], f"{p}")


def p_unattend(rng):
    pw = human_pw(rng, "!#%*+-_.@=?")
    org = company(rng).capitalize()
    lang = rng.choice(["en-US", "de-DE", "en-GB", "nl-NL", "pl-PL"])
    txt = lines('<?xml version="1.0" encoding="utf-8"?>', '<unattend xmlns="urn:schemas-microsoft-com:unattend">',
                '    <settings pass="oobeSystem">',
                '        <component name="Microsoft-Windows-International-Core" processorArchitecture="amd64" publicKeyToken="31bf3856ad364e35" language="neutral" versionScope="nonSxS">',
                f"            <InputLocale>{lang}</InputLocale>", f"            <SystemLocale>{lang}</SystemLocale>",
                f"            <UILanguage>{lang}</UILanguage>", f"            <UserLocale>{lang}</UserLocale>", "        </component>",
                '        <component name="Microsoft-Windows-Shell-Setup" processorArchitecture="amd64" publicKeyToken="31bf3856ad364e35" language="neutral" versionScope="nonSxS">',
                "            <OOBE>", "                <HideEULAPage>true</HideEULAPage>", "                <HideWirelessSetupInOOBE>true</HideWirelessSetupInOOBE>",
                "                <ProtectYourPC>3</ProtectYourPC>", "            </OOBE>", "            <UserAccounts>",
                "                <AdministratorPassword>", f"                    <Value>{pw}</Value>",
                "                    <PlainText>true</PlainText>", "                </AdministratorPassword>", "            </UserAccounts>",
                f"            <RegisteredOrganization>{org}</RegisteredOrganization>",
                f"            <TimeZone>{rng.choice(['W. Europe Standard Time', 'GMT Standard Time', 'Eastern Standard Time', 'Central European Standard Time'])}</TimeZone>",
                "        </component>", "    </settings>",
                maybe(rng, 0.5, f'    <cpi:offlineImage cpi:source="wim:c:/iso/sources/install.wim#Windows {rng.choice(["10 Pro", "11 Enterprise", "Server 2022 SERVERSTANDARD"])}" xmlns:cpi="urn:schemas-microsoft-com:cpi" />'),
                "</unattend>")
    return pw, txt


def p_curl_basic(rng):
    u = rng.choice(["admin", "ci", first(rng), f"{first(rng)}.{rng.choice(LAST)}", "svc-deploy"])
    pw = human_pw(rng)
    val = f"{u}:{pw}"
    host = f"{rng.choice(['jenkins', 'nexus', 'registry', 'artifactory', 'grafana', 'sonar'])}.{domain(rng)}"
    path = rng.choice(["/api/json?pretty=true", "/service/rest/v1/repositories", "/v2/_catalog", "/api/health", "/api/system/status"])
    ip = ip_pub(rng)
    code = rng.choice([200, 401, 403, 302])
    msg = {200: "OK", 401: "Unauthorized", 403: "Forbidden", 302: "Found"}[code]
    txt = lines(f"$ curl -v -u {u} https://{host}{path}", f"Enter host password for user '{u}':",
                f"*   Trying {ip}:443...", f"* Connected to {host} ({ip}) port 443",
                "* ALPN: curl offers h2,http/1.1", "* TLSv1.3 (OUT), TLS handshake, Client hello (1):",
                "* SSL connection using TLSv1.3 / TLS_AES_256_GCM_SHA384", "* Server certificate:",
                f"*  subject: CN={host}", f"*  issuer: C=US; O=Let's Encrypt; CN={rng.choice(['R10', 'R11', 'E5', 'E6'])}",
                "*  SSL certificate verify ok.", "* using HTTP/1.1", f"> GET {path} HTTP/1.1", f"> Host: {host}",
                f"> Authorization: Basic {b64(val)}", f"> User-Agent: curl/{rng.choice(['7.88.1', '8.5.0', '8.7.1', '7.81.0'])}",
                "> Accept: */*", ">", f"< HTTP/1.1 {code} {msg}", f"< Date: {dt(rng).strftime('%a, %d %b %Y %H:%M:%S GMT')}",
                "< Content-Type: application/json", f"< X-Request-Id: {uuid4(rng)}",
                maybe(rng, 0.5, f'< WWW-Authenticate: Basic realm="{rng.choice(["Sonatype Nexus Repository Manager", "Jenkins", "Restricted"])}"') if code == 401 else None,
                "<", rng.choice(['{"errors":[{"status":401,"message":"Bad credentials"}]}', '{"status":"ok"}', "<html><body>Authentication required</body></html>", "{}"]),
                f"* Connection #0 to host {host} left intact")
    return val, txt


def p_k8s_secret(rng):
    pw = gen_pw(rng, rng.randint(20, 32), ALNUM + "!#%+-_=.")
    app = rng.choice(["orders", "billing", "keycloak", "gitea", "payments-api", "airflow", "outline"])
    ns = rng.choice(["prod", "default", "apps", app, "staging"])
    user = rng.choice([app.replace("-", "_"), "app", "postgres", "svc_" + app[:5]])
    host = rng.choice([f"{app}-db.{ns}.svc.cluster.local", f"postgres-primary.db.svc", ip_priv(rng)])
    keyname = rng.choice(["DB_PASSWORD", "password", "POSTGRES_PASSWORD", "database-password", "SPRING_DATASOURCE_PASSWORD"])
    data = [(rng.choice(["DB_HOST", "host"]), host), (rng.choice(["DB_USER", "username"]), user), (keyname, pw),
            (rng.choice(["DB_NAME", "database"]), app.replace("-", "_"))]
    if rng.random() < 0.5:
        data.append(("DB_PORT", "5432"))
    rng.shuffle(data)
    meta = ["metadata:", f"  name: {app}-db", f"  namespace: {ns}"]
    if rng.random() < 0.5:
        meta += [f"  creationTimestamp: \"{iso(rng)}\"", f"  resourceVersion: \"{rng.randint(100000, 99999999)}\"", f"  uid: {uuid4(rng)}"]
        pre = f"$ kubectl get secret {app}-db -n {ns} -o yaml"
    else:
        meta += ["  labels:", f"    app.kubernetes.io/name: {app}", "    app.kubernetes.io/component: database"]
        pre = maybe(rng, 0.5, "---")
    return pw, lines(pre, "apiVersion: v1", "kind: Secret", meta, "type: Opaque", "data:", [f"  {k}: {b64(v)}" for k, v in data])


def p_gha(rng):
    tok = crc_token(rng, "ghp_")
    owner = rng.choice([company(rng), first(rng) + rng.choice(["dev", "codes", "-oss", ""])])
    repo = rng.choice(["homebrew-tap", "infra", "website", "charts", "docs", "cli"])
    way = rng.randrange(3)
    steps = ["      - uses: actions/checkout@v4", maybe(rng, 0.6, "        with:"), maybe(rng, 0.6, "          fetch-depth: 0")]
    steps = [s for s in steps if s]
    if len(steps) == 2:
        steps = steps[:1]
    build = rng.choice([["      - uses: actions/setup-go@v5", "        with:", "          go-version: '1.22'", "      - run: make dist"],
                        ["      - uses: actions/setup-node@v4", "        with:", "          node-version: 20", "      - run: npm ci && npm run build"],
                        ["      - run: ./scripts/build.sh"]])
    if way == 0:
        env = ["    env:", f"      GH_TOKEN: {tok}"]
        last = [f"      - name: Publish release", "        run: gh release create ${{ github.ref_name }} dist/* --generate-notes"]
    elif way == 1:
        env = []
        last = ["      - name: Push formula to tap", "        run: |",
                f"          git clone https://x-access-token:{tok}@github.com/{owner}/{repo}.git tap",
                "          cp dist/*.rb tap/Formula/ && cd tap", "          git commit -am \"bump ${{ github.ref_name }}\" && git push"]
    else:
        env = []
        last = ["      - uses: peter-evans/repository-dispatch@v3", "        with:", f"          token: {tok}",
                f"          repository: {owner}/{repo}", "          event-type: upstream-release"]
    return tok, lines(maybe(rng, 0.4, f"# .github/workflows/{rng.choice(['release', 'publish', 'deploy'])}.yml"),
                      f"name: {rng.choice(['release', 'Release', 'publish', 'cd'])}", "", "on:", "  push:", "    tags:", "      - 'v*'",
                      maybe(rng, 0.5, "  workflow_dispatch:"), "", "permissions:", "  contents: write", "", "jobs:",
                      f"  {rng.choice(['release', 'build', 'publish'])}:", f"    runs-on: {rng.choice(['ubuntu-latest', 'ubuntu-22.04', 'self-hosted'])}",
                      env, "    steps:", steps, build, last)


def p_gitlab(rng):
    tok = "glpat-" + rs(rng, 20, URLA)
    img = rng.choice(["python:3.12-slim", "alpine:3.19", "node:20", "curlimages/curl:8.6.0"])
    way = rng.randrange(3)
    if way == 0:
        job = [f"  image: {img}", "  script:", "    - pip install build twine", "    - python -m build",
               f"    - TWINE_PASSWORD={tok} TWINE_USERNAME=__token__ python -m twine upload --repository-url ${{CI_API_V4_URL}}/projects/${{CI_PROJECT_ID}}/packages/pypi dist/*"]
    elif way == 1:
        job = [f"  image: {img}", "  variables:", f"    RELEASE_TOKEN: \"{tok}\"", "  script:",
               '    - \'curl --fail --header "PRIVATE-TOKEN: $RELEASE_TOKEN" --data "name=$CI_COMMIT_TAG&tag_name=$CI_COMMIT_TAG" "$CI_API_V4_URL/projects/$CI_PROJECT_ID/releases"\'']
    else:
        job = ["  image: alpine/git", "  script:", f"    - git remote set-url origin \"https://oauth2:{tok}@{rng.choice(['gitlab.com', 'git.' + domain(rng)])}/${{CI_PROJECT_PATH}}.git\"",
               "    - git tag -f latest && git push -f origin latest"]
    return tok, lines("stages:", "  - test", "  - build", "  - release", "", "variables:", f'  GIT_DEPTH: "{rng.choice([1, 10, 50])}"',
                      maybe(rng, 0.5, '  PIP_CACHE_DIR: "$CI_PROJECT_DIR/.cache/pip"'), "",
                      "test:", "  stage: test", f"  image: {img}", "  script:", f"    - {rng.choice(['make test', 'pytest -q', 'npm test', 'go test ./...'])}", "",
                      f"{rng.choice(['release', 'publish', 'tag-latest'])}:", "  stage: release", job,
                      "  rules:", rng.choice(["    - if: $CI_COMMIT_TAG", "    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH"]))


def p_jenkins(rng):
    tok = "11" + hx(rng, 32)
    job = rng.choice(["deploy-api", "nightly-e2e", "release-train", "infra-apply", "mobile-build"])
    who = fullname(rng)
    u = rng.choice(["deployer", "ci-bot", first(rng), "jenkins"])
    host = f"{rng.choice(['jenkins2', 'ci', 'build'])}.{domain(rng)}"
    ws = f"/var/lib/jenkins/workspace/{job}"
    out = [rng.choice([f"Started by user {who}", "Started by timer", f"Started by upstream project \"{rng.choice(['build-all', 'pipeline'])}\" build number {rng.randint(10, 999)}"]),
           "Running as SYSTEM", f"Building in workspace {ws}",
           f"[{job}] $ /bin/sh -xe /tmp/jenkins{rng.randint(10 ** 17, 10 ** 18)}.sh",
           f"+ export ENV={rng.choice(['staging', 'prod', 'qa'])}",
           f"+ curl -sS -X POST -u {u}:{tok} 'https://{host}/job/{rng.choice(['downstream', 'smoke-tests', 'notify'])}/buildWithParameters?ENV=staging&SHA={hx(rng, 40)}'"]
    if rng.random() < 0.5:
        out += ["<html><head><meta http-equiv='refresh' content='1;url=/login'/></head></html>", "+ echo triggered"]
    else:
        out += ["+ echo triggered", "triggered"]
    out += [f"+ ./gradlew {rng.choice(['assembleRelease', 'test', 'bootJar'])} --no-daemon"]
    out += [f"> Task :{rng.choice(['app', 'core', 'api'])}:{t}" for t in rng.sample(["compileJava", "processResources", "classes", "jar", "test", "check"], rng.randint(2, 5))]
    out += [f"BUILD SUCCESSFUL in {rng.randint(12, 300)}s", rng.choice(["Finished: SUCCESS", "Finished: UNSTABLE", "Finished: FAILURE"])]
    return tok, lines(out)


def p_azure_pipelines(rng):
    key = b64(rb(rng, 64))
    acct = rng.choice([company(rng).replace("-", ""), "st" + rng.choice(WORDS)]) + rng.choice(["prod", "assets", "sa", "data"]) + str(rng.randint(1, 99))
    cs = f"DefaultEndpointsProtocol=https;AccountName={acct};AccountKey={key};EndpointSuffix=core.windows.net"
    way = rng.randrange(2)
    if way == 0:
        var = ["variables:", f"  buildConfiguration: 'Release'", f"  AZURE_STORAGE_CONNECTION_STRING: '{cs}'"]
        step = ["  - script: az storage blob upload-batch -d '$web' -s ./dist --overwrite", "    displayName: 'Upload static site'",
                "    env:", "      AZURE_STORAGE_CONNECTION_STRING: $(AZURE_STORAGE_CONNECTION_STRING)"]
    else:
        var = ["variables:", f"  buildConfiguration: 'Release'", f"  storageAccount: '{acct}'"]
        step = ["  - task: AzureCLI@2", "    inputs:", f"      azureSubscription: '{rng.choice(['prod-sc', 'Visual Studio Enterprise', 'arm-conn'])}'",
                "      scriptType: bash", "      scriptLocation: inlineScript", "      inlineScript: |",
                f"        az storage blob upload-batch --account-name $(storageAccount) --account-key \"{key}\" -d artifacts -s $(Build.ArtifactStagingDirectory)"]
    return key, lines("trigger:", "  branches:", "    include:", "      - main", "", "pool:",
                      f"  vmImage: '{rng.choice(['ubuntu-latest', 'windows-latest', 'ubuntu-22.04'])}'", "", var, "", "steps:",
                      "  - task: UseDotNet@2", "    inputs:", f"      version: '{rng.choice(['8.x', '6.x'])}'",
                      "  - script: dotnet publish -c $(buildConfiguration) -o $(Build.ArtifactStagingDirectory)", "    displayName: 'Publish'", step)


def p_aws_session(rng):
    akid = "AKIA" + rs(rng, 16, B32A)
    sk = rs(rng, 40, B64A)
    acct = str(rng.randint(10 ** 11, 10 ** 12 - 1))
    prof = rng.choice(["ci", "default", "prod-admin", "terraform", first(rng)])
    region = rng.choice(["eu-central-1", "us-east-1", "eu-west-1", "ap-southeast-2", "us-west-2"])
    usr = rng.choice(["ci-deployer", "terraform", first(rng), "backup-bot"])
    p = rng.choice(["$ ", f"{first(rng)}@{hostname(rng)}:~$ ", "PS C:\\> "])
    if rng.random() < 0.5:
        body = [f"{p}aws configure --profile {prof}", f"AWS Access Key ID [None]: {akid}", f"AWS Secret Access Key [None]: {sk}",
                f"Default region name [None]: {region}", "Default output format [None]: json"]
    else:
        body = [f"{p}cat ~/.aws/credentials", f"[{prof}]", f"aws_access_key_id = {akid}", f"aws_secret_access_key = {sk}",
                maybe(rng, 0.5, f"region = {region}")]
    after = [f"{p}aws sts get-caller-identity --profile {prof}", "{", f'    "UserId": "AIDA{rs(rng, 17, B32A)}",',
             f'    "Account": "{acct}",', f'    "Arn": "arn:aws:iam::{acct}:user/{usr}"', "}"]
    if rng.random() < 0.4:
        after = [f"{p}aws s3 ls --profile {prof}",
                 "An error occurred (InvalidAccessKeyId) when calling the ListBuckets operation: The AWS Access Key Id you provided does not exist in our records."]
    return sk, lines(maybe(rng, 0.4, "setting up the new CI user, why does this fail?"), body, after)


def p_tfvars(rng):
    tok = "dop_v1_" + hx(rng, 64)
    proj = rng.choice(["homelab", "blog", "k8s", "vpn", "minecraft"])
    kv = [f'region        = "{rng.choice(["fra1", "ams3", "nyc3", "lon1", "sgp1"])}"',
          f'droplet_size  = "{rng.choice(["s-1vcpu-1gb", "s-2vcpu-4gb", "s-4vcpu-8gb"])}"',
          f'project_name  = "{proj}"', f'image         = "{rng.choice(["ubuntu-24-04-x64", "debian-12-x64", "rockylinux-9-x64"])}"',
          f'ssh_key_ids   = [{rng.randint(10 ** 7, 10 ** 8)}]', f'domain        = "{domain(rng)}"',
          f"enable_backups = {rng.choice(['true', 'false'])}", f'tags          = ["{proj}", "terraform"]']
    rng.shuffle(kv)
    name = rng.choice(["do_token", "digitalocean_token", "do_api_token"])
    kv.insert(rng.randint(0, 2), f'{name}{" " * max(1, 14 - len(name))}= "{tok}"')
    return tok, lines(maybe(rng, 0.5, "# terraform.tfvars"), kv)


def p_django(rng):
    alpha = LOW + DIG + "!@#$%^&*(-_=+)"
    sk = rs(rng, 50, alpha)
    if rng.random() < 0.25:
        sk = "django-insecure-" + rs(rng, 50, alpha)
    proj = rng.choice(["mysite", "backend", "shop", "portal", "core"])
    q = '"' if "'" in sk or rng.random() < 0.5 else "'"
    txt = lines('"""', f"Django settings for {proj} project.", "", f"Generated by 'django-admin startproject' using Django {rng.choice(['4.2.11', '5.0.4', '5.1'])}.", '"""', "",
                "from pathlib import Path", maybe(rng, 0.5, "import os"), "",
                "BASE_DIR = Path(__file__).resolve().parent.parent", "",
                "# SECURITY WARNING: keep the secret key used in production secret!", f"SECRET_KEY = {q}{sk}{q}", "",
                f"DEBUG = {rng.choice(['True', 'False'])}", "", f"ALLOWED_HOSTS = [{rng.choice(['', repr(domain(rng)), repr('*')])}]", "",
                "INSTALLED_APPS = [", "    'django.contrib.admin',", "    'django.contrib.auth',", "    'django.contrib.contenttypes',",
                "    'django.contrib.sessions',", "    'django.contrib.messages',", "    'django.contrib.staticfiles',",
                maybe(rng, 0.5, "    'rest_framework',"), f"    '{rng.choice(['accounts', 'orders', 'api', 'blog'])}',", "]", "",
                "DATABASES = {", "    'default': {", "        'ENGINE': 'django.db.backends.sqlite3',", "        'NAME': BASE_DIR / 'db.sqlite3',",
                "    }", "}", "", f"LANGUAGE_CODE = '{rng.choice(['en-us', 'de', 'nl', 'pt-br'])}'", f"TIME_ZONE = '{rng.choice(TZS)}'", "USE_TZ = True",
                "STATIC_URL = 'static/'")
    return sk, txt


def p_java_jdbc(rng):
    pw = gen_pw(rng, rng.randint(14, 24), ALNUM + "-_.~")
    db = rng.choice(["shop", "inventory", "ledger", "users", "catalog"])
    host = rng.choice([f"{db}-db", ip_priv(rng), f"mysql.{domain(rng)}"])
    u = rng.choice(["app", db, "svc_" + db])
    d = dt(rng)
    url = f"jdbc:mysql://{host}:3306/{db}?user={u}&password={pw}&useSSL={rng.choice(['false', 'true'])}&serverTimezone=UTC"
    t = d.strftime("%Y-%m-%d %H:%M:%S.") + str(rng.randint(100, 999))
    pkg = f"com.{company(rng).replace('-', '')}.{db}"
    out = [f"{t}  INFO 1 --- [           main] {pkg}.Application : Starting Application v{rng.randint(1, 4)}.{rng.randint(0, 20)}.{rng.randint(0, 9)} using Java {rng.choice(['17.0.10', '21.0.2', '11.0.22'])}",
           f"{t}  INFO 1 --- [           main] com.zaxxer.hikari.HikariDataSource       : HikariPool-1 - Starting...",
           f"{t} DEBUG 1 --- [           main] com.zaxxer.hikari.HikariConfig           : jdbcUrl.........................{url}",
           f"{t} ERROR 1 --- [           main] com.zaxxer.hikari.pool.HikariPool        : HikariPool-1 - Exception during pool initialization.", "",
           f"java.sql.SQLNonTransientConnectionException: {rng.choice(['Could not create connection to database server.', 'Public Key Retrieval is not allowed', f'Access denied for user {chr(39)}{u}{chr(39)}@{chr(39)}{ip_priv(rng)}{chr(39)} (using password: YES)'])}",
           "\tat com.mysql.cj.jdbc.exceptions.SQLError.createSQLException(SQLError.java:111)",
           "\tat com.mysql.cj.jdbc.exceptions.SQLExceptionsMapping.translateException(SQLExceptionsMapping.java:122)",
           "\tat com.mysql.cj.jdbc.ConnectionImpl.createNewIO(ConnectionImpl.java:815)",
           "\tat com.mysql.cj.jdbc.ConnectionImpl.<init>(ConnectionImpl.java:438)",
           "\tat com.mysql.cj.jdbc.ConnectionImpl.getInstance(ConnectionImpl.java:241)",
           "\tat com.mysql.cj.jdbc.NonRegisteringDriver.connect(NonRegisteringDriver.java:189)",
           "\tat com.zaxxer.hikari.util.DriverDataSource.getConnection(DriverDataSource.java:138)",
           "\tat com.zaxxer.hikari.pool.PoolBase.newConnection(PoolBase.java:359)",
           "\tat com.zaxxer.hikari.pool.HikariPool.checkFailFast(HikariPool.java:554)",
           "\tat com.zaxxer.hikari.HikariDataSource.getConnection(HikariDataSource.java:100)",
           f"\tat {pkg}.config.DataSourceConfig.init(DataSourceConfig.java:{rng.randint(20, 90)})",
           "\t... 42 common frames omitted",
           "Caused by: com.mysql.cj.exceptions.CJException: " + rng.choice(["Communications link failure", "Access denied", "Unknown database"]),
           "\tat java.base/jdk.internal.reflect.DirectConstructorHandleAccessor.newInstance(DirectConstructorHandleAccessor.java:62)",
           "\t... 60 common frames omitted"]
    if rng.random() < 0.5:
        out = out[2:]
    return pw, lines(out)


def p_node_mongo(rng):
    pw = gen_pw(rng, rng.randint(12, 24), ALNUM)
    u = rng.choice(["admin", "app", first(rng), "dbUser", "mongo"])
    cl = f"cluster{rng.randint(0, 3)}.{rs(rng, 5, LOW + DIG)}.mongodb.net"
    db = rng.choice(["test", "prod", "shop", "chat", "myFirstDatabase"])
    uri = f"mongodb+srv://{u}:{pw}@{cl}/{db}?retryWrites=true&w=majority" + rng.choice(["", "&appName=Cluster0"])
    app = rng.choice(["server.js", "index.js", "src/db.ts", "app.js"])
    out = [f"> {rng.choice(['api', 'backend', 'server'])}@1.0.0 {rng.choice(['dev', 'start'])}", f"> {rng.choice(['nodemon', 'node', 'ts-node'])} {app}", "",
           rng.choice([f"Connecting to {uri}", f"[db] using uri: {uri}", f"MONGO_URI = {uri}"]),
           f"Server listening on port {rng.choice([3000, 4000, 5000, 8080])}"]
    if rng.random() < 0.5:
        out += [f"/app/node_modules/mongoose/lib/connection.js:{rng.randint(800, 900)}",
                "    err = new ServerSelectionError();", "          ^", "",
                "MongooseServerSelectionError: Could not connect to any servers in your MongoDB Atlas cluster. One common reason is that you're trying to access the database from an IP that isn't whitelisted.",
                f"    at _handleConnectionErrors (/app/node_modules/mongoose/lib/connection.js:{rng.randint(800, 900)}:11)",
                f"    at NativeConnection.openUri (/app/node_modules/mongoose/lib/connection.js:{rng.randint(750, 800)}:11) {{",
                "  reason: TopologyDescription {", "    type: 'ReplicaSetNoPrimary',", "    servers: Map(3) {", "  },", "  code: undefined", "}", "",
                f"Node.js v{rng.choice(['18.19.0', '20.11.1', '22.2.0'])}"]
    else:
        out += ["MongoServerError: bad auth : authentication failed",
                "    at Connection.onMessage (/app/node_modules/mongodb/lib/cmap/connection.js:207:30)",
                "    at MessageStream.<anonymous> (/app/node_modules/mongodb/lib/cmap/connection.js:60:60)",
                "  ok: 0,", "  code: 8000,", "  codeName: 'AtlasError',", "  [Symbol(errorLabels)]: Set(1) { 'HandshakeError' }",
                "[nodemon] app crashed - waiting for file changes before starting..."]
    return pw, lines(out)


def p_go_stripe(rng):
    key = "sk_live_51" + rs(rng, rng.randint(87, 95))
    pkg = rng.choice(["billing", "payments", "checkout", "main"])
    ver = rng.choice(["v76", "v78", "v79", "v81"])
    if rng.random() < 0.5:
        body = ["func init() {", f'\tstripe.Key = "{key}"', "}"]
    else:
        body = ["const (", f'\tstripeSecret = "{key}" // TODO move to env before merge',
                f'\tcurrency     = "{rng.choice(["eur", "usd", "gbp"])}"', ")", "", "func init() {", "\tstripe.Key = stripeSecret", "}"]
    fn = rng.choice(["CreateCustomer", "NewCheckout", "ChargeOrder"])
    return key, lines(f"package {pkg}", "", "import (", '\t"context"', '\t"fmt"', "", f'\t"github.com/stripe/stripe-go/{ver}"',
                      f'\t"github.com/stripe/stripe-go/{ver}/customer"', ")", "", body, "",
                      f"func {fn}(ctx context.Context, email string) (string, error) {{", "\tparams := &stripe.CustomerParams{",
                      "\t\tEmail: stripe.String(email),", f'\t\tDescription: stripe.String("{rng.choice(["web signup", "created by api", "migration"])}"),', "\t}",
                      "\tc, err := customer.New(params)", "\tif err != nil {", f'\t\treturn "", fmt.Errorf("{fn.lower()}: %w", err)', "\t}", "\treturn c.ID, nil", "}")


def p_rust_anthropic(rng):
    key = "sk-ant-api03-" + rs(rng, 93, URLA) + "AA"
    model = rng.choice(["claude-3-5-sonnet-20241022", "claude-3-haiku-20240307", "claude-sonnet-4-20250514", "claude-3-opus-20240229"])
    way = rng.randrange(2)
    hdr = [f'        .header("x-api-key", "{key}")'] if way == 0 else ['        .header("x-api-key", API_KEY)']
    const = [] if way == 0 else [f'const API_KEY: &str = "{key}";', ""]
    return key, lines("use reqwest::Client;", "use serde_json::json;", "", const, "#[tokio::main]",
                      "async fn main() -> Result<(), Box<dyn std::error::Error>> {", "    let client = Client::new();",
                      "    let body = json!({", f'        "model": "{model}",', f'        "max_tokens": {rng.choice([256, 512, 1024])},',
                      f'        "messages": [{{"role": "user", "content": "{rng.choice(["Summarise this log", "Hello", "Translate to German: good morning"])}"}}]', "    });",
                      "    let resp = client", '        .post("https://api.anthropic.com/v1/messages")', hdr,
                      '        .header("anthropic-version", "2023-06-01")', '        .header("content-type", "application/json")',
                      "        .json(&body)", "        .send()", "        .await?;", '    println!("{}", resp.text().await?);', "    Ok(())", "}")


def p_appsettings(rng):
    key = "SG." + rs(rng, 22, URLA) + "." + rs(rng, 43, URLA)
    d = {"Logging": {"LogLevel": {"Default": "Information", "Microsoft.AspNetCore": "Warning"}},
         "AllowedHosts": "*",
         "ConnectionStrings": {"Default": "Server=" + rng.choice(["(localdb)\\mssqllocaldb", "sql01", ip_priv(rng)]) + ";Database=" + rng.choice(["Shop", "Crm", "Portal"]) + ";Trusted_Connection=True;MultipleActiveResultSets=true"},
         rng.choice(["SendGrid", "Email", "Mail"]): {rng.choice(["ApiKey", "SendGridKey", "Key"]): key,
                                                    "FromAddress": f"no-reply@{domain(rng)}", "FromName": company(rng).capitalize()},
         "FeatureFlags": {"NewCheckout": rng.choice([True, False])}}
    items = list(d.items())
    rng.shuffle(items)
    txt = json.dumps(dict(items), indent=rng.choice([2, 4]))
    return key, lines(maybe(rng, 0.4, "// appsettings.Development.json"), txt)


def p_notebook(rng):
    key = "sk-proj-" + rs(rng, 64, URLA) + "T3BlbkFJ" + rs(rng, 64, URLA)
    c1 = rng.choice([["import os\n", f'os.environ["OPENAI_API_KEY"] = "{key}"\n', "from openai import OpenAI\n", "client = OpenAI()"],
                     ["from openai import OpenAI\n", f'client = OpenAI(api_key="{key}")']])
    c2 = ["resp = client.chat.completions.create(\n", f'    model="{rng.choice(["gpt-4o-mini", "gpt-4o", "gpt-4.1-mini"])}",\n',
          f'    messages=[{{"role": "user", "content": "{rng.choice(["Classify the sentiment of these reviews", "Write a SQL query", "Summarise"])}"}}],\n',
          ")\n", "print(resp.choices[0].message.content)"]
    c0 = ["import pandas as pd\n", f'df = pd.read_csv("{rng.choice(["reviews.csv", "tickets.csv", "data/train.csv"])}")\n', "df.head()"]
    cells = [{"cell_type": "code", "execution_count": 1, "id": hx(rng, 8), "metadata": {}, "outputs": [], "source": c0},
             {"cell_type": "code", "execution_count": 2, "id": hx(rng, 8), "metadata": {}, "outputs": [], "source": c1},
             {"cell_type": "code", "execution_count": 3, "id": hx(rng, 8), "metadata": {},
              "outputs": [{"name": "stdout", "output_type": "stream", "text": [rng.choice(["Positive: 61%, negative: 24%, neutral: 15%\n", "SELECT * FROM orders;\n", "Done.\n"])]}],
              "source": c2}]
    if rng.random() < 0.5:
        cells.insert(0, {"cell_type": "markdown", "id": hx(rng, 8), "metadata": {}, "source": [f"# {rng.choice(['LLM labelling', 'Quick experiment', 'Review triage'])}"]})
    nb = {"cells": cells, "metadata": {"kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"},
                                       "language_info": {"name": "python", "version": rng.choice(["3.11.8", "3.12.2", "3.10.13"])}},
          "nbformat": 4, "nbformat_minor": 5}
    return key, json.dumps(nb, indent=1) + "\n"


def p_r_hf(rng):
    tok = "hf_" + rs(rng, 34, UP + LOW)
    model = rng.choice(["distilbert-base-uncased-finetuned-sst-2-english", "facebook/bart-large-mnli", "sentence-transformers/all-MiniLM-L6-v2"])
    way = rng.randrange(2)
    if way == 0:
        auth = [f'Sys.setenv(HUGGINGFACE_HUB_TOKEN = "{tok}")', "", "req <- request(paste0(api, model)) |>",
                '  req_auth_bearer_token(Sys.getenv("HUGGINGFACE_HUB_TOKEN")) |>']
    else:
        auth = [f'hf_token <- "{tok}"', "", "req <- request(paste0(api, model)) |>", "  req_auth_bearer_token(hf_token) |>"]
    return tok, lines(f"# {rng.choice(['sentiment', 'zero-shot', 'embeddings'])} via HF inference API", "library(httr2)", "library(jsonlite)",
                      maybe(rng, 0.5, "library(dplyr)"), "", 'api <- "https://api-inference.huggingface.co/models/"', f'model <- "{model}"', auth,
                      "  req_body_json(list(inputs = texts)) |>", "  req_retry(max_tries = 3)", "",
                      f'texts <- readLines("{rng.choice(["comments.txt", "data/survey.txt", "tweets.txt"])}")', "resp <- req_perform(req)",
                      "res <- resp_body_json(resp)", "str(res[[1]])")


def p_irc_telegram(rng):
    tok = f"{rng.randint(10 ** 9, 8 * 10 ** 9)}:AA{rs(rng, 33, URLA)}"
    a, b = rng.sample(FIRST, 2)
    chan = rng.choice(["#python", "#botdev", "#selfhosted", "#homeassistant", "#n8n"])
    d = dt(rng)
    L = []
    k = 0

    def t():
        nonlocal k
        k += rng.randint(0, 3)
        return (d + datetime.timedelta(minutes=k)).strftime("%H:%M")
    L.append(f"--- Log opened {d.strftime('%a %b %d %H:%M:%S %Y')}") if rng.random() < 0.5 else None
    L += [f"[{t()}] <{a}> anyone used python-telegram-bot v20? setWebhook keeps returning 404",
          f"[{t()}] <{b}> 404 usually means the token in the url is wrong",
          f"[{t()}] <{a}> " + rng.choice([f"this is what i call: https://api.telegram.org/bot{tok}/setWebhook?url=https://{domain(rng)}/hook",
                                         f"token is {tok} , copied straight from botfather",
                                         f"my code does Application.builder().token(\"{tok}\").build()"]),
          f"[{t()}] <{b}> {rng.choice(['you just pasted your bot token in a public channel', 'dude revoke that now', 'uh, /revoke in botfather asap'])}",
          f"[{t()}] <{a}> {rng.choice(['oh crap', 'lol ok', 'ffs. doing it'])}",
          f"[{t()}] * {b} {rng.choice(['facepalms', 'sighs', 'hands a new token'])}"]
    if rng.random() < 0.5:
        L.insert(1, f"[{t()}] -!- {first(rng)} [~{first(rng)}@{ip_pub(rng)}] has joined {chan}")
    return tok, lines([x for x in L if x])


def p_issue_tailscale(rng):
    tok = f"tskey-auth-k{rs(rng, rng.randint(5, 7))}CNTRL-{rs(rng, rng.randint(30, 34))}"
    ver = f"1.{rng.randint(56, 76)}.{rng.randint(0, 4)}"
    host = rng.choice(["unraid", "truenas", "pi4", "synology", "proxmox-lxc"])
    return tok, lines(f"### What is the issue?", "",
                      f"Container exits right after start on {host}, `tailscale up` never completes. Started after upgrading to {ver}.", "",
                      "### Steps to reproduce", "", "```yaml", "services:", "  tailscale:", f"    image: tailscale/tailscale:v{ver}",
                      f"    hostname: {host}", "    environment:", f"      - TS_AUTHKEY={tok}",
                      "      - TS_STATE_DIR=/var/lib/tailscale", f"      - TS_EXTRA_ARGS=--advertise-exit-node{rng.choice(['', ' --accept-routes'])}",
                      "    volumes:", "      - ./state:/var/lib/tailscale", "      - /dev/net/tun:/dev/net/tun",
                      "    cap_add:", "      - net_admin", "      - sys_module", "```", "", "### Logs", "", "```",
                      f"boot: {dt(rng).strftime('%Y/%m/%d %H:%M:%S')} Starting tailscaled",
                      f"boot: {dt(rng).strftime('%Y/%m/%d %H:%M:%S')} Waiting for tailscaled socket",
                      rng.choice(["backend error: invalid key: unable to validate API key", "health(warnable=login-state): error: You are logged out.",
                                  "control: RegisterReq: got response; nodeKeyExpired=false, machineAuthorized=true; authURL=false"]),
                      "```", "", "### Are you on the latest version?", "", "Yes", "", "### Tailscale version", "", ver, "",
                      "### OS", "", rng.choice(["Linux", "Other"]))


def p_forum_twilio(rng):
    tok = hx(rng, 32)
    sid = "AC" + hx(rng, 32)
    lang = rng.choice(["py", "js"])
    title = rng.choice(["Twilio SMS returns 20003 Authenticate even though credentials are right",
                        "Getting 401 from Twilio API in production only", "twilio.rest.Client raises TwilioRestException HTTP 401"])
    if lang == "py":
        code = ["```python", "from twilio.rest import Client", "", f'account_sid = "{sid}"', f'auth_token = "{tok}"',
                "client = Client(account_sid, auth_token)", "", "message = client.messages.create(",
                f'    body="Your code is {{}}".format(otp),', f'    from_="+1{rng.randint(200, 999)}{rng.randint(2000000, 9999999)}",',
                "    to=user.phone,", ")", "```"]
    else:
        code = ["```js", f"const client = require('twilio')('{sid}', '{tok}');", "", "client.messages",
                "  .create({ body: `Your code is ${otp}`, from: process.env.TWILIO_FROM, to: user.phone })",
                "  .then(m => console.log(m.sid))", "  .catch(console.error);", "```"]
    return tok, lines(f"## {title}", "", f"Asked {rng.randint(2, 11)} months ago · Viewed {rng.randint(40, 3000)} times", "",
                      rng.choice(["Works on my laptop but the Heroku dyno gets:", "This started today, nothing changed on our side:", "I keep getting this error:"]),
                      "", "```", "HTTP 401 error: Unable to create record: Authenticate", "code: 20003", "more_info: https://www.twilio.com/docs/errors/20003", "```", "",
                      "Here's the code:", "", code, "", rng.choice(["What am I missing?", "Any ideas?", "Thanks in advance!"]), "",
                      f"{rng.choice(['python', 'node.js'])} twilio sms", "", "---", "**1 comment**", "",
                      f"> {rng.choice(['You should not post your auth token publicly. Rotate it in the console.', 'Is the subaccount suspended?', 'Check the clock on the server.'])} – {first(rng)}{rng.randint(1, 999)}")


def p_raw_http_jwt(rng):
    now = rng.randint(1690000000, 1750000000)
    claims = {"sub": str(rng.randint(1000, 999999)) if rng.random() < 0.5 else uuid4(rng),
              "iss": f"https://auth.{domain(rng)}/", "aud": rng.choice(["api", "web", "mobile-app"]),
              "iat": now, "exp": now + rng.choice([900, 3600, 86400]), "scope": rng.choice(["read write", "orders:read", "openid profile email"]),
              "jti": hx(rng, 16)}
    alg = rng.choice(["HS256", "RS256"])
    tok = jwt(rng, claims, alg, 32 if alg == "HS256" else 256)
    host = f"api.{domain(rng)}"
    path = rng.choice(["/v2/orders?limit=50", "/api/me", "/graphql", "/v1/invoices/" + str(rng.randint(1000, 9999))])
    meth = "POST" if path == "/graphql" else "GET"
    req = [f"{meth} {path} HTTP/{rng.choice(['1.1', '2'])}", f"Host: {host}", f"Authorization: Bearer {tok}",
           "Accept: application/json", f"User-Agent: {rng.choice(['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36', 'okhttp/4.12.0', 'PostmanRuntime/7.37.0'])}",
           maybe(rng, 0.5, "Accept-Encoding: gzip, deflate, br"), maybe(rng, 0.5, f"X-Request-ID: {uuid4(rng)}"), "Connection: close"]
    body = []
    if meth == "POST":
        req.insert(4, "Content-Type: application/json")
        body = ["", '{"query":"{ viewer { id email orders(first: 5) { id total } } }"}']
    resp = ["", "", f"HTTP/1.1 {rng.choice(['200 OK', '403 Forbidden', '500 Internal Server Error'])}",
            "Content-Type: application/json; charset=utf-8", f"Date: {dt(rng).strftime('%a, %d %b %Y %H:%M:%S GMT')}",
            f"X-RateLimit-Remaining: {rng.randint(0, 999)}", "", rng.choice(['{"error":"insufficient_scope"}', '{"data":[]}', '{"message":"Internal error","trace":"' + hx(rng, 16) + '"}'])]
    return tok, lines(maybe(rng, 0.4, "Request (from Burp):"), req, body, resp)


def p_netscape_cookies(rng):
    site = domain(rng)
    kind = rng.randrange(4)
    if kind == 0:
        name, val = "sessionid", rs(rng, 32, LOW + DIG)
    elif kind == 1:
        name, val = "_gitlab_session", hx(rng, 32)
    elif kind == 2:
        name, val = "connect.sid", "s%3A" + rs(rng, 32, URLA) + "." + b64(rb(rng, 32)).rstrip("=").replace("+", "%2B").replace("/", "%2F")
    else:
        name, val = rng.choice(["laravel_session", "PHPSESSID"]), rs(rng, 40, LOW + DIG) if rng.random() < 0.5 else rs(rng, 26, LOW + DIG)
    exp = rng.randint(1700000000, 1800000000)
    rows = [(f".{site}", "TRUE", "/", "FALSE", str(exp + 5 * 10 ** 7), "_ga", f"GA1.2.{rng.randint(10 ** 8, 10 ** 9)}.{rng.randint(1600000000, 1700000000)}"),
            (f"{site}", "FALSE", "/", "FALSE", str(exp), "lang", rng.choice(["en", "de", "fr", "en-GB"])),
            (f"{site}", "FALSE", "/", "TRUE", str(exp), name, val),
            (f".{site}", "TRUE", "/", "FALSE", str(exp + 999), "theme", rng.choice(["dark", "light"])),
            (f"{site}", "FALSE", "/", "FALSE", "0", "cookie_consent", rng.choice(["accepted", "necessary", "1"]))]
    rows = rows[:2] + shuffled(rng, rows[2:])
    if rng.random() < 0.5:
        rows.insert(0, (f".{rng.choice(['youtube.com', 'wikipedia.org', 'github.com'])}", "TRUE", "/", "TRUE", str(exp), "PREF", f"f6={rng.randint(1, 9)}0000&tz=UTC"))
    return val, lines("# Netscape HTTP Cookie File", "# https://curl.se/docs/http-cookies.html", "# This file was generated by libcurl! Edit at your own risk.",
                      "", ["\t".join(r) for r in rows])


def p_openssh_key(rng):
    u = first(rng)
    key = openssh_ed25519(rng, f"{u}@{rng.choice(['laptop', 'MacBook-Pro.local', hostname(rng), 'DESKTOP-' + rs(rng, 7, UP + DIG)])}")
    gh = rng.choice(['github.com', 'gitlab.com', 'git.' + domain(rng)])
    pre = rng.choice([[f"$ ssh -T git@{gh}", f"git@{gh}: Permission denied (publickey).",
                       "$ cat ~/.ssh/id_ed25519"],
                      ["ok so I generated a key like the guide said, here's the file, the server still says Permission denied:", ""],
                      [f"[{first(rng)}@{hostname(rng)} ~]$ cat .ssh/id_ed25519"]])
    post = rng.choice([["$ ls -l ~/.ssh", f"-rw-r--r-- 1 {u} {u}  {rng.randint(400, 420)} {dt(rng).strftime('%b %d %H:%M')} id_ed25519",
                        f"-rw-r--r-- 1 {u} {u}  {rng.randint(90, 110)} {dt(rng).strftime('%b %d %H:%M')} id_ed25519.pub"],
                       ["", "what am I doing wrong?"], []])
    return key, lines(pre, key, post)


def p_openvpn(rng):
    if rng.random() < 0.6:
        der, label = ec_pkcs8(rng), "PRIVATE KEY"
    else:
        der, label = ec_sec1(rng), "EC PRIVATE KEY"
    key = pem(label, der)
    cert = pem("CERTIFICATE", cert_der(rng))
    ca = pem("CERTIFICATE", cert_der(rng))
    remote = rng.choice([f"vpn.{domain(rng)}", ip_pub(rng)])
    return key, lines("client", "dev tun", f"proto {rng.choice(['udp', 'tcp'])}", f"remote {remote} {rng.choice([1194, 443, 1195])}",
                      "resolv-retry infinite", "nobind", "persist-key", "persist-tun", "remote-cert-tls server",
                      f"cipher {rng.choice(['AES-256-GCM', 'AES-128-GCM'])}", "auth SHA256", f"verb {rng.choice([3, 4])}",
                      maybe(rng, 0.5, "explicit-exit-notify"), "<ca>", ca, "</ca>", "<cert>", cert, "</cert>", "<key>", key, "</key>")


def p_wireguard(rng):
    k = wg_key(rng)
    peer = b64(rb(rng, 32))
    net = rng.randint(0, 254)
    return k, lines(maybe(rng, 0.5, f"# /etc/wireguard/{rng.choice(['wg0', 'home', 'mullvad-se4', 'office'])}.conf"), "[Interface]",
                    f"PrivateKey = {k}", f"Address = 10.{rng.randint(0, 254)}.{net}.{rng.randint(2, 50)}/32",
                    maybe(rng, 0.7, f"DNS = {rng.choice(['1.1.1.1', '10.64.0.1', '192.168.1.1', '9.9.9.9'])}"),
                    maybe(rng, 0.3, f"ListenPort = {rng.choice([51820, 51821])}"), "", "[Peer]", f"PublicKey = {peer}",
                    f"AllowedIPs = {rng.choice(['0.0.0.0/0, ::/0', '0.0.0.0/0', '192.168.' + str(net) + '.0/24, 10.8.0.0/24'])}",
                    f"Endpoint = {rng.choice([ip_pub(rng), 'home.' + domain(rng), 'vpn.' + domain(rng)])}:{rng.choice([51820, 51820, 443, 1637])}",
                    maybe(rng, 0.6, "PersistentKeepalive = 25"))


def p_uptime_kuma(rng):
    url = f"https://{rng.choice(['discord.com', 'discordapp.com'])}/api/webhooks/{rng.randint(10 ** 17, 10 ** 19)}/{rs(rng, 68, URLA)}"
    if rng.random() < 0.5:
        cfg = {"name": rng.choice(["Discord #alerts", "Homelab discord", "ops-discord"]), "type": "discord", "isDefault": True,
               "discordUsername": rng.choice(["Uptime Kuma", "Kuma", "StatusBot"]), "discordWebhookUrl": url, "applyExisting": True}
        data = {"version": f"1.23.{rng.randint(0, 13)}", "notificationList": [{"id": 1, "name": cfg["name"], "config": json.dumps(cfg),
                                                                          "active": 1, "userId": 1, "isDefault": 1}],
                "monitorList": [{"id": k + 1, "name": rng.choice(WORDS).capitalize(), "url": f"https://{rng.choice(WORDS)}.{domain(rng)}",
                                 "interval": rng.choice([60, 120, 300]), "type": "http", "active": 1} for k in range(rng.randint(1, 4))]}
        return url, json.dumps(data, indent=4) + "\n"
    return url, lines("apiVersion: 1", "contactPoints:", f"  - orgId: 1", f"    name: {rng.choice(['discord', 'Discord homelab'])}",
                      "    receivers:", f"      - uid: {rs(rng, 14, LOW + DIG)}", "        type: discord", "        settings:",
                      f"          url: {url}", "          use_discord_username: false", "        disableResolveMessage: false")


def p_py_slack(rng):
    url = f"https://hooks.slack.com/services/T{rs(rng, rng.randint(8, 10), UP + DIG)}/B{rs(rng, rng.randint(8, 10), UP + DIG)}/{rs(rng, 24)}"
    var = rng.choice(["SLACK_WEBHOOK", "WEBHOOK_URL", "ALERT_HOOK", "slack_url"])
    return url, lines("#!/usr/bin/env python3", f'"""{rng.choice(["Disk space alert", "Nightly backup report", "cert expiry checker"])} -> slack."""',
                      "import json", "import shutil", "import socket", "import urllib.request", "", f'{var} = "{url}"',
                      f"THRESHOLD = {rng.choice([80, 85, 90])}", "", "", "def post(text):",
                      f'    req = urllib.request.Request({var}, data=json.dumps({{"text": text}}).encode(),',
                      '                                 headers={"Content-Type": "application/json"})',
                      "    urllib.request.urlopen(req, timeout=10)", "", "",
                      "def main():", f'    total, used, _ = shutil.disk_usage("{rng.choice(["/", "/srv", "/mnt/tank", "/var/lib/docker"])}")',
                      "    pct = used * 100 // total", "    if pct >= THRESHOLD:",
                      '        post(f":warning: {socket.gethostname()} disk at {pct}%")', "", "",
                      'if __name__ == "__main__":', "    main()")


def p_rclone_b2(rng):
    key = "K005" + rs(rng, 27)
    kid = "005" + hx(rng, 12) + "00000000" + str(rng.randint(10, 99))
    rem = rng.choice(["b2", "backblaze", "offsite", "b2-photos"])
    other = rng.choice([["[gdrive]", "type = drive", "scope = drive.readonly", "team_drive = "],
                        ["[local-nas]", "type = sftp", f"host = {ip_priv(rng)}", f"user = {first(rng)}", "key_file = ~/.ssh/id_ed25519"],
                        []])
    blocks = [[f"[{rem}]", "type = b2", f"account = {kid}", f"key = {key}", maybe(rng, 0.5, "hard_delete = true")],
              [f"[{rem}-crypt]", "type = alias", f"remote = {rem}:{rng.choice(['photos-backup', 'restic-repo', 'nas-offsite'])}"]]
    if other:
        blocks.insert(rng.randint(0, 2), other)
    out = []
    for b in blocks:
        out += b + [""]
    return key, lines(maybe(rng, 0.5, "$ cat ~/.config/rclone/rclone.conf"), out)


def p_vault_login(rng):
    tok = "hvs." + rs(rng, 24)
    u = first(rng)
    pol = rng.sample(["default", "dev", "ops-read", "kv-writer", "pki-issuer"], 2)
    return tok, lines(f"$ vault login -method={rng.choice(['userpass', 'ldap', 'oidc'])} username={u}", "Password (will be hidden):",
                      "Success! You are now authenticated. The token information displayed below",
                      "is already stored in the token helper. You do NOT need to run \"vault login\"", "again. Future Vault requests will automatically use this token.", "",
                      "Key                    Value", "---                    -----", f"token                  {tok}",
                      f"token_accessor         {rs(rng, 24)}", f"token_duration         {rng.choice(['768h', '8h', '32h'])}",
                      "token_renewable        true", f"token_policies         [\"{pol[0]}\" \"{pol[1]}\"]", "identity_policies      []",
                      f"policies               [\"{pol[0]}\" \"{pol[1]}\"]", f"token_meta_username    {u}",
                      maybe(rng, 0.5, f"$ vault kv get -field=url secret/{rng.choice(['apps', 'infra'])}/{rng.choice(WORDS)}"),
                      maybe(rng, 0.5, f"https://{rng.choice(WORDS)}.{domain(rng)}"))


def p_systemd_grafana(rng):
    tok = f"glsa_{rs(rng, 32)}_{hx(rng, 8)}"
    svc = rng.choice(["grafana-backup", "dashboard-sync", "grafana-annotate", "alert-bridge"])
    host = f"https://{rng.choice(['grafana', 'dash', 'metrics'])}.{domain(rng)}"
    env = [f"Environment=GRAFANA_URL={host}", f'Environment="GRAFANA_TOKEN={tok}"', f"Environment=BACKUP_DIR=/var/backups/{svc}"]
    rng.shuffle(env)
    return tok, lines(f"# /etc/systemd/system/{svc}.service", "[Unit]", f"Description={svc.replace('-', ' ').title()}",
                      "After=network-online.target", "Wants=network-online.target", "", "[Service]", "Type=oneshot",
                      f"User={rng.choice(['grafana', 'backup', 'svc'])}", env,
                      f"ExecStart=/usr/local/bin/{svc} {rng.choice(['--all-orgs', '--folders Prod,Infra', ''])}".rstrip(),
                      maybe(rng, 0.5, "Nice=10"), "", "[Install]", "WantedBy=multi-user.target")


def p_nginx_origin(rng):
    sec = rs(rng, rng.randint(32, 48), ALNUM)
    hdr = rng.choice(["X-Origin-Verify", "X-Edge-Auth", "X-CDN-Shared", "X-Upstream-Sig"])
    srv = rng.choice(["shop", "api", "app", "media"])
    d = domain(rng)
    return sec, lines(f"upstream {srv}_backend {{", f"    server {ip_priv(rng)}:{rng.choice([8000, 8080, 3000])};",
                      maybe(rng, 0.5, f"    server {ip_priv(rng)}:{rng.choice([8000, 8080, 3000])} backup;"), "    keepalive 32;", "}", "",
                      "server {", "    listen 443 ssl http2;", f"    server_name {srv}.{d};", "",
                      f"    ssl_certificate     /etc/letsencrypt/live/{srv}.{d}/fullchain.pem;",
                      f"    ssl_certificate_key /etc/letsencrypt/live/{srv}.{d}/privkey.pem;", "",
                      "    location / {", f"        proxy_pass http://{srv}_backend;", "        proxy_http_version 1.1;",
                      '        proxy_set_header Connection "";', "        proxy_set_header Host $host;",
                      "        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;",
                      f"        proxy_set_header {hdr} \"{sec}\";", f"        proxy_read_timeout {rng.choice([30, 60, 120])}s;", "    }", "",
                      maybe(rng, 0.5, "    location /healthz { access_log off; return 200 'ok'; }"), "}")


def p_gcp_sa(rng):
    der = rsa_pkcs8(rng)
    keypem = pem("PRIVATE KEY", der) + "\n"
    esc = keypem.replace("\n", "\\n")
    proj = f"{rng.choice(WORDS)}-{rng.choice(WORDS)}-{rng.randint(100000, 999999)}"
    sa = rng.choice(["terraform", "ci-deployer", "bq-loader", "firebase-adminsdk-" + rs(rng, 5, LOW + DIG)])
    d = {"type": "service_account", "project_id": proj, "private_key_id": hx(rng, 40), "private_key": keypem,
         "client_email": f"{sa}@{proj}.iam.gserviceaccount.com", "client_id": str(rng.randint(10 ** 20, 10 ** 21)),
         "auth_uri": "https://accounts.google.com/o/oauth2/auth", "token_uri": "https://oauth2.googleapis.com/token",
         "auth_provider_x509_cert_url": "https://www.googleapis.com/oauth2/v1/certs",
         "client_x509_cert_url": f"https://www.googleapis.com/robot/v1/metadata/x509/{sa}%40{proj}.iam.gserviceaccount.com",
         "universe_domain": "googleapis.com"}
    txt = json.dumps(d, indent=2)
    assert esc in txt
    return esc, txt + "\n"


def p_pip_userinfo(rng):
    tok = rng.choice(["AKCp8" + rs(rng, 68), rs(rng, 40, ALNUM), "cmVmdGtuOjAxOj" + rs(rng, 50)])
    u = rng.choice([first(rng), f"{first(rng)}.{rng.choice(LAST)}", "ci-reader", "build"])
    host = f"{rng.choice(['artifactory', 'repo', 'pkgs'])}.{domain(rng)}"
    url = f"https://{u}:{tok}@{host}/artifactory/api/pypi/{rng.choice(['pypi-virtual', 'python-remote', 'pypi'])}/simple"
    if rng.random() < 0.5:
        return tok, lines(maybe(rng, 0.5, "# ~/.config/pip/pip.conf"), "[global]", f"index-url = {url}", f"trusted-host = {host}",
                          f"timeout = {rng.choice([30, 60, 120])}", maybe(rng, 0.5, "disable-pip-version-check = true"), "",
                          "[install]", maybe(rng, 0.5, "no-cache-dir = false"), "progress-bar = off")
    return tok, lines("# Dockerfile snippet", f"FROM python:{rng.choice(['3.11', '3.12'])}-slim", "WORKDIR /app", "COPY requirements.txt .",
                      f"RUN pip install --no-cache-dir --index-url {url} -r requirements.txt", "COPY . .",
                      f'CMD ["{rng.choice(["gunicorn", "uvicorn"])}", "app:app"]')


def p_sops_age(rng):
    sk = bech32_encode("age-secret-key-", rb(rng, 32)).upper()
    pk = bech32_encode("age", rb(rng, 32))
    d = dt(rng)
    return sk, lines(rng.choice(["$ cat ~/.config/sops/age/keys.txt", "# keys.txt", f"{first(rng)} — here's the key for the flux repo, put it in keys.txt:"]),
                     f"# created: {d.strftime('%Y-%m-%dT%H:%M:%S')}{rng.choice(['Z', '+01:00', '+02:00', '-05:00'])}", f"# public key: {pk}", sk,
                     maybe(rng, 0.6, ""), maybe(rng, 0.6, "$ cat .sops.yaml"), maybe(rng, 0.6, "creation_rules:"),
                     maybe(rng, 0.6, "  - path_regex: .*.ya?ml"), maybe(rng, 0.6, "    encrypted_regex: ^(data|stringData)$"),
                     maybe(rng, 0.6, f"    age: {pk}"))


def p_dockerfile_doppler(rng):
    cfg = rng.choice(["prd", "stg", "dev", "prd_eu", "ci"])
    tok = f"dp.st.{cfg}.{rs(rng, rng.randint(40, 44))}"
    base = rng.choice(["node:20-alpine", "python:3.12-slim", "golang:1.22-alpine"])
    run = {"node:20-alpine": ('["node", "server.js"]', "npm ci --omit=dev"), "python:3.12-slim": ('["python", "-m", "app"]', "pip install -r requirements.txt"),
           "golang:1.22-alpine": ('["./bin/api"]', "go build -o bin/api ./cmd/api")}[base]
    inst = ("RUN apk add --no-cache curl gnupg && (curl -Ls --tlsv1.2 --proto \"=https\" --retry 3 https://cli.doppler.com/install.sh | sh)"
            if "alpine" in base else "RUN apt-get update && apt-get install -y curl gnupg && (curl -Ls https://cli.doppler.com/install.sh | sh)")
    return tok, lines(f"FROM {base}", "WORKDIR /app", inst, "COPY . .", f"RUN {run[1]}",
                      rng.choice([f"ENV DOPPLER_TOKEN={tok}", f'ENV DOPPLER_TOKEN="{tok}"', f"ARG DOPPLER_TOKEN={tok}"]),
                      f"EXPOSE {rng.choice([3000, 8000, 8080])}", f'CMD ["doppler", "run", "--", {run[0][1:-1]}]')


def p_kafka(rng):
    k = rs(rng, 16, UP + DIG)
    s = rs(rng, 64, B64A)
    boot = f"pkc-{rs(rng, 5, LOW + DIG)}.{rng.choice(['eu-central-1.aws', 'us-east1.gcp', 'westeurope.azure'])}.confluent.cloud:9092"
    kv = [f"bootstrap.servers={boot}", "security.protocol=SASL_SSL", "sasl.mechanism=PLAIN",
          f"sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username='{k}' password='{s}';",
          "client.dns.lookup=use_all_dns_ips", "session.timeout.ms=45000", "acks=all"]
    extra = [f"schema.registry.url=https://psrc-{rs(rng, 5, LOW + DIG)}.{rng.choice(['eu-central-1', 'us-east-2'])}.aws.confluent.cloud",
             "basic.auth.credentials.source=USER_INFO", f"client.id={rng.choice(['orders-producer', 'ccloud-python-client-' + uuid4(rng)])}"]
    return s, lines(maybe(rng, 0.5, "# Required connection configs for Kafka producer, consumer, and admin"), kv[:4],
                    maybe(rng, 0.5, ""), maybe(rng, 0.5, "# Best practice for higher availability in Apache Kafka clients prior to 3.0"),
                    kv[4:], rng.sample(extra, rng.randint(0, 2)) if rng.random() < 0.5 else extra[2:])


def p_neovim_lua(rng):
    name = rng.choice(["relay_passphrase", "mothership_sigil", "bridge_word", "gateway_seal", "kennel_pin", "beacon_cipher",
                       "llm_gatekey", "proxy_charm", "rosetta_ticket", "owl_pass"])
    sec = b64u(rb(rng, rng.choice([24, 30, 32])))
    plug = rng.choice(["company/llm-gateway.nvim", "team/ask.nvim", "internal/codepilot.nvim"])
    return sec, lines("-- lua/plugins/ai.lua", "return {", "  {", f'    "{plug}",', '    event = "VeryLazy",',
                      '    dependencies = { "nvim-lua/plenary.nvim" },', "    opts = {",
                      f'      endpoint = "https://llm.{domain(rng)}/v1",', f'      model = "{rng.choice(["qwen2.5-coder-32b", "llama3-70b", "codestral"])}",',
                      f'      {name} = "{sec}",', f"      max_tokens = {rng.choice([512, 1024, 2048])},",
                      "      keymaps = {", '        ask = "<leader>aa",', '        explain = "<leader>ae",', "      },", "    },", "  },", "}")


def p_sentryclirc(rng):
    tok = "sntryu_" + hx(rng, 64)
    org = company(rng)
    proj = rng.choice(["web", "backend", "ios", "android", "api"])
    blocks = [["[defaults]", f"url = {rng.choice(['https://sentry.io/', 'https://sentry.' + domain(rng) + '/'])}", f"org = {org}", f"project = {proj}"],
              ["[auth]", f"token = {tok}"]]
    if rng.random() < 0.5:
        blocks.append(["[log]", "level = info"])
    if rng.random() < 0.5:
        blocks.append(["[http]", "keepalive = true", "verify_ssl = true"])
    out = []
    for b in blocks:
        out += b + [""]
    return tok, lines(maybe(rng, 0.5, "$ cat ~/.sentryclirc"), out,
                      maybe(rng, 0.5, f"$ sentry-cli releases new {proj}@{rng.randint(1, 5)}.{rng.randint(0, 30)}.{rng.randint(0, 9)}"),
                      maybe(rng, 0.5, "error: API request failed"))


# ================================================================= clean families
# Each family: f(rng) -> (text, ext).  No credential anywhere.

def c_git_hashes(rng):
    k = rng.randrange(3)
    authors = [(fullname(rng), None) for _ in range(3)]
    if k == 0:
        out = []
        for _ in range(rng.randint(3, 8)):
            n = rng.choice(authors)[0]
            out += [f"commit {hx(rng, 40)}", f"Author: {n} <{n.split()[0].lower()}@{domain(rng)}>",
                    f"Date:   {dt(rng).strftime('%a %b %d %H:%M:%S %Y')} {rng.choice(['+0100', '+0200', '-0500', '+0000'])}", "",
                    f"    {rng.choice(['fix', 'feat', 'chore', 'docs', 'refactor'])}: {rng.choice(['handle empty token list', 'rotate signing key id', 'bump deps', 'rename secret_ref field', 'retry on 429', 'drop py3.8'])}", ""]
        return lines(out), "txt"
    if k == 1:
        out = [f"{hx(rng, rng.choice([7, 8, 10, 12]))} {rng.choice(['(HEAD -> main, origin/main) ', '', '', '(tag: v' + str(rng.randint(1, 9)) + '.' + str(rng.randint(0, 20)) + '.0) '])}{rng.choice(['Merge pull request #' + str(rng.randint(10, 999)), 'Update README', 'Fix flaky test', 'Add CSP nonce support', 'Refactor auth middleware'])}"
               for _ in range(rng.randint(6, 25))]
        return lines("$ git log --oneline --decorate", out), "txt"
    base = hx(rng, 40)
    return lines(f"$ git rev-parse HEAD", base, "$ git reflog -n 6",
                 [f"{hx(rng, 7)} HEAD@{{{i}}}: {rng.choice(['commit: wip', 'checkout: moving from main to fix/login', 'rebase (finish): returning to refs/heads/dev', 'pull: Fast-forward', 'reset: moving to HEAD~1'])}" for i in range(6)],
                 "$ git submodule status", [f" {hx(rng, 40)} vendor/{rng.choice(WORDS)} (v{rng.randint(0, 3)}.{rng.randint(0, 9)}.{rng.randint(0, 9)})" for _ in range(rng.randint(1, 4))]), "txt"


def c_file_digests(rng):
    k = rng.randrange(3)
    files = [f"{rng.choice(['app', 'tool', 'agent', 'cli', 'server'])}-{rng.randint(1, 3)}.{rng.randint(0, 20)}.{rng.randint(0, 9)}-{rng.choice(['linux-amd64', 'linux-arm64', 'darwin-arm64', 'windows-amd64'])}.{rng.choice(['tar.gz', 'zip', 'deb', 'rpm'])}" for _ in range(rng.randint(3, 9))]
    if k == 0:
        return lines(f"# SHA256SUMS for v{rng.randint(1, 9)}.{rng.randint(0, 30)}.{rng.randint(0, 9)}", f"# generated {iso(rng)}",
                     [f"{hx(rng, 64)}  {f}" for f in files]), "sha256"
    if k == 1:
        return lines(f"## Release v{rng.randint(1, 4)}.{rng.randint(0, 30)}.{rng.randint(0, 9)}", "", "### Checksums (SHA-256)", "", "| file | sha256 |", "|---|---|",
                     [f"| `{f}` | `{hx(rng, 64)}` |" for f in files], "", "Verify with `sha256sum -c checksums.txt`."), "md"
    return lines("$ md5sum *.iso; sha1sum *.iso; b2sum -l 256 *.iso",
                 [f"{hx(rng, 32)}  {f}" for f in files[:3]], [f"{hx(rng, 40)}  {f}" for f in files[:3]],
                 [f"{hx(rng, 64)}  {f}" for f in files[:3]]), "txt"


def c_lockfiles(rng):
    k = rng.randrange(4)
    pk = rng.sample(["lodash", "react", "chalk", "debug", "ms", "semver", "commander", "yaml", "zod", "axios", "uuid", "minimist"], rng.randint(3, 6))
    if k == 0:
        d = {"name": rng.choice(WORDS), "version": "1.0.0", "lockfileVersion": 3, "requires": True, "packages": {}}
        for p in pk:
            d["packages"][f"node_modules/{p}"] = {"version": f"{rng.randint(1, 9)}.{rng.randint(0, 20)}.{rng.randint(0, 9)}",
                                                  "resolved": f"https://registry.npmjs.org/{p}/-/{p}-1.0.0.tgz",
                                                  "integrity": "sha512-" + b64(rb(rng, 64)), "license": "MIT"}
        return json.dumps(d, indent=2) + "\n", "json"
    if k == 1:
        out = []
        for p in pk:
            m = f"github.com/{rng.choice(WORDS)}/{p}"
            v = f"v{rng.randint(0, 2)}.{rng.randint(0, 30)}.{rng.randint(0, 9)}"
            out += [f"{m} {v} h1:{b64(rb(rng, 32))}", f"{m} {v}/go.mod h1:{b64(rb(rng, 32))}"]
        return lines(out), "sum"
    if k == 2:
        out = ["# This file is automatically @generated by Cargo.", "# It is not intended for manual editing.", "version = 3", ""]
        for p in pk:
            out += ["[[package]]", f'name = "{p}"', f'version = "{rng.randint(0, 2)}.{rng.randint(0, 30)}.{rng.randint(0, 9)}"',
                    'source = "registry+https://github.com/rust-lang/crates.io-index"', f'checksum = "{hx(rng, 64)}"', ""]
        return lines(out), "lock"
    return lines([f"{p}=={rng.randint(0, 5)}.{rng.randint(0, 30)}.{rng.randint(0, 9)} \\\n    --hash=sha256:{hx(rng, 64)} \\\n    --hash=sha256:{hx(rng, 64)}" for p in pk]), "txt"


def c_ssh_public(rng):
    k = rng.randrange(3)
    gens = [ssh_pub_ed25519, ssh_pub_rsa, ssh_pub_ecdsa]
    if k == 0:
        return lines("$ cat ~/.ssh/authorized_keys", "# managed by ansible", [f"{rng.choice(gens)(rng)} {first(rng)}@{rng.choice(['laptop', 'desktop', hostname(rng)])}" for _ in range(rng.randint(3, 6))]), "txt"
    if k == 1:
        return lines(f"# ~/.ssh/known_hosts ({first(rng)})", [f"{rng.choice([ip_priv(rng), hostname(rng) + '.' + domain(rng), '|1|' + b64(rb(rng, 20)) + '|' + b64(rb(rng, 20))])} {rng.choice([ssh_pub_ed25519, ssh_pub_ecdsa])(rng)}" for _ in range(rng.randint(4, 9))]), "txt"
    return lines("#cloud-config", "users:", f"  - name: {first(rng)}", "    groups: sudo", "    shell: /bin/bash",
                 "    sudo: ['ALL=(ALL) NOPASSWD:ALL']", "    ssh_authorized_keys:", f"      - {ssh_pub_ed25519(rng)} {first(rng)}@{rng.choice(['mbp', 'work'])}",
                 maybe(rng, 0.5, f"      - {ssh_pub_rsa(rng, 2048)} ci"), "package_update: true"), "yaml"


def c_x509(rng):
    k = rng.randrange(3)
    c1 = pem("CERTIFICATE", cert_der(rng))
    if k == 0:
        return lines(f"$ openssl s_client -connect {domain(rng)}:443 -showcerts </dev/null", "CONNECTED(00000003)",
                     f"depth=2 C = US, O = Internet Security Research Group, CN = ISRG Root X1", "verify return:1",
                     "---", "Certificate chain", f" 0 s:CN = {domain(rng)}", f"   i:C = US, O = Let's Encrypt, CN = R11", c1,
                     " 1 s:C = US, O = Let's Encrypt, CN = R11", "   i:C = US, O = Internet Security Research Group, CN = ISRG Root X1",
                     pem("CERTIFICATE", cert_der(rng)), "---"), "txt"
    if k == 1:
        return lines("# ca-bundle.crt", f"# {company(rng).capitalize()} Internal Root CA", c1, f"# {company(rng).capitalize()} Issuing CA 2", pem("CERTIFICATE", cert_der(rng))), "crt"
    mod = ":".join(hx(rng, 2) for _ in range(256))
    return lines("Certificate:", "    Data:", "        Version: 3 (0x2)", f"        Serial Number:", f"            {':'.join(hx(rng, 2) for _ in range(16))}",
                 "        Signature Algorithm: sha256WithRSAEncryption", f"        Issuer: C = US, O = {company(rng).capitalize()}, CN = {company(rng).capitalize()} CA",
                 "        Subject Public Key Info:", "            Public Key Algorithm: rsaEncryption", "                Public-Key: (2048 bit)",
                 "                Modulus:", ["                    00:" + mod[:44]] + ["                    " + mod[i:i + 45] for i in range(45, len(mod), 45)],
                 "                Exponent: 65537 (0x10001)", c1), "txt"


def c_jwks(rng):
    keys = []
    for _ in range(rng.randint(1, 3)):
        if rng.random() < 0.6:
            keys.append({"kty": "RSA", "use": "sig", "alg": "RS256", "kid": rng.choice([hx(rng, 40), b64u(rb(rng, 32)), uuid4(rng)]),
                         "n": b64u(b"\xc0" + rb(rng, 255)), "e": "AQAB"})
        else:
            keys.append({"kty": "EC", "use": "sig", "crv": "P-256", "kid": hx(rng, 16), "x": b64u(rb(rng, 32)), "y": b64u(rb(rng, 32)), "alg": "ES256"})
    if rng.random() < 0.5:
        return lines(f"$ curl -s https://{rng.choice(['login', 'auth', 'id'])}.{domain(rng)}/.well-known/jwks.json | jq .", json.dumps({"keys": keys}, indent=2)), "json"
    iss = f"https://auth.{domain(rng)}"
    disc = {"issuer": iss, "authorization_endpoint": f"{iss}/authorize", "token_endpoint": f"{iss}/oauth/token",
            "jwks_uri": f"{iss}/.well-known/jwks.json", "response_types_supported": ["code", "id_token"],
            "id_token_signing_alg_values_supported": ["RS256", "ES256"], "embedded_jwks": {"keys": keys[:1]}}
    return json.dumps(disc, indent=2) + "\n", "json"


def c_cloud_ids(rng):
    acct = str(rng.randint(10 ** 11, 10 ** 12 - 1))
    k = rng.randrange(3)
    if k == 0:
        d = {"Reservations": [{"Instances": [{"InstanceId": f"i-0{hx(rng, 16)}", "ImageId": f"ami-0{hx(rng, 16)}", "SubnetId": f"subnet-0{hx(rng, 16)}",
                                              "VpcId": f"vpc-0{hx(rng, 16)}", "SecurityGroups": [{"GroupId": f"sg-0{hx(rng, 16)}", "GroupName": "web"}],
                                              "IamInstanceProfile": {"Arn": f"arn:aws:iam::{acct}:instance-profile/ec2-ssm", "Id": "AIPA" + rs(rng, 17, B32A)},
                                              "NetworkInterfaces": [{"NetworkInterfaceId": f"eni-0{hx(rng, 16)}", "OwnerId": acct}]}],
                               "OwnerId": acct, "ReservationId": f"r-0{hx(rng, 16)}"}]}
        return json.dumps(d, indent=4) + "\n", "json"
    if k == 1:
        return lines(f"subscription_id = \"{uuid4(rng)}\"", f"tenant_id       = \"{uuid4(rng)}\"", f"client_id       = \"{uuid4(rng)}\"  # app registration (public id)",
                     f"resource_group  = \"rg-{rng.choice(WORDS)}-{rng.choice(['prod', 'dev'])}\"",
                     f"log_analytics   = \"/subscriptions/{uuid4(rng)}/resourceGroups/rg-logs/providers/Microsoft.OperationalInsights/workspaces/law-{rng.choice(WORDS)}\""), "tfvars"
    return lines(f"$ stripe events list --limit 3",
                 json.dumps({"data": [{"id": "evt_" + rs(rng, 24), "type": rng.choice(["charge.succeeded", "invoice.paid", "customer.created"]),
                                       "data": {"object": {"id": rng.choice(["ch_", "in_", "cus_"]) + rs(rng, 24), "customer": "cus_" + rs(rng, 14),
                                                           "payment_intent": "pi_" + rs(rng, 24)}}} for _ in range(3)], "has_more": True}, indent=2)), "txt"


def c_placeholders(rng):
    k = rng.randrange(3)
    ph = lambda: rng.choice(["<your-api-key>", "YOUR_API_KEY_HERE", "changeme", "xxxxxxxxxxxxxxxxxxxx", "REPLACE_ME", "${API_KEY}",
                             "<redacted>", "your-secret-here", "sk-...", "TODO", "<token>", "{{ api_token }}", "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
                             "AKIAXXXXXXXXXXXXXXXX", "insert-password", "%%DB_PASSWORD%%", "dummy", "example-token"])
    if k == 0:
        keys = rng.sample(["DATABASE_URL", "REDIS_PASSWORD", "STRIPE_SECRET_KEY", "OPENAI_API_KEY", "SMTP_PASSWORD", "JWT_SECRET", "GITHUB_TOKEN",
                           "AWS_SECRET_ACCESS_KEY", "SENTRY_AUTH_TOKEN", "SLACK_WEBHOOK_URL"], rng.randint(4, 8))
        out = ["# .env.example -- copy to .env and fill in"]
        for key in keys:
            v = ph() if key != "DATABASE_URL" else "postgres://USER:PASSWORD@localhost:5432/DBNAME"
            out.append(f"{key}={v}")
        return lines(out), "env"
    if k == 1:
        return lines("# config.sample.yaml", "auth:", f"  client_id: {ph()}", f"  client_secret: {ph()}", "smtp:",
                     f"  host: smtp.{domain(rng)}", "  user: apikey", f"  password: {ph()}", "storage:", f"  access_key: {ph()}", f"  secret_key: {ph()}"), "yaml"
    return lines("## Configuration", "", "Export your credentials before running:", "", "```bash", f"export API_TOKEN={ph()}",
                 f"export DB_PASS='{ph()}'", "curl -H \"Authorization: Bearer $API_TOKEN\" https://api." + domain(rng) + "/v1/me", "```", "",
                 "Replace the values above with your own; never commit real ones."), "md"


def c_secret_refs(rng):
    k = rng.randrange(4)
    app = rng.choice(WORDS)
    envs = rng.sample(["DB_PASSWORD", "API_TOKEN", "REDIS_URL", "SMTP_PASS", "JWT_SIGNING_KEY", "STRIPE_KEY", "OAUTH_CLIENT_SECRET", "S3_SECRET"], rng.randint(2, 4))
    if k == 0:
        out = [f"# deployment/{app}.yaml (excerpt)", "env:"]
        for e in envs:
            out += [f"  - name: {e}", "    valueFrom:", "      secretKeyRef:", f"        name: {app}-{rng.choice(['secrets', 'creds', 'env'])}",
                    f"        key: {e.lower().replace('_', '-')}"]
        return lines(out), "yaml"
    if k == 1:
        return lines(f"# .github/workflows/{rng.choice(['deploy', 'release', 'ci'])}.yml (excerpt)", "steps:",
                     f"  - run: ./scripts/{rng.choice(['deploy', 'publish', 'migrate'])}.sh", "    env:",
                     [f"      {e}: ${{{{ secrets.{rng.choice(['PROD_', 'STAGING_', ''])}{e} }}}}" for e in envs]), "yml"
    if k == 2:
        vault = rng.choice(["Prod", "Infra", "Shared", "Team " + app.capitalize()])
        out = [f"# {app}.env.tpl -- resolved by `op run`"]
        for e in envs:
            out.append(rng.choice([f'{e}="op://{vault}/{app}-{e.lower()[:6]}/credential"', f"{e}=vault:secret/data/{app}/{e.lower()}#value",
                                   f"{e}=arn:aws:ssm:{rng.choice(['eu-west-1', 'us-east-1'])}:{rng.randint(10 ** 11, 10 ** 12 - 1)}:parameter/{app}/prod/{e.lower()}",
                                   f"{e}=projects/{app}-{rng.randint(1000, 9999)}/secrets/{e.lower().replace('_', '-')}/versions/latest"]))
        out += ["", f"# {rng.randint(2, 9)} refs, no literal values in git"]
        return lines(out), "env"
    return lines(f'data "aws_secretsmanager_secret_version" "{app}" {{', f'  secret_id = "{app}/{rng.choice(["prod", "stg"])}/rds"', "}", "",
                 f'resource "aws_db_instance" "{app}" {{', f'  identifier = "{app}-{rng.randint(1, 9)}"', f'  username   = "{rng.choice(["app", app[:8]])}"',
                 f'  password   = jsondecode(data.aws_secretsmanager_secret_version.{app}.secret_string)["password"]',
                 f'  instance_class = "{rng.choice(["db.t4g.micro", "db.m6g.large"])}"', "}"), "tf"


def c_masked(rng):
    k = rng.randrange(4)
    if k == 0:
        return lines("  # aws_db_instance.main will be updated in-place", '  ~ resource "aws_db_instance" "main" {',
                     f'        id       = "{rng.choice(WORDS)}-db"', "      ~ password = (sensitive value)", '        username = "app"', "    }", "",
                     "Plan: 0 to add, 1 to change, 0 to destroy."), "txt"
    if k == 1:
        return lines(f"$ kubectl describe secret {rng.choice(WORDS)}-creds", f"Name:         {rng.choice(WORDS)}-creds", "Type:  Opaque", "", "Data", "====",
                     f"password:  {rng.randint(12, 40)} bytes", f"username:  {rng.randint(3, 12)} bytes", f"token:     {rng.randint(32, 64)} bytes"), "txt"
    if k == 2:
        return lines(f"2024-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}T10:0{rng.randint(0, 9)}:00Z Run ./deploy.sh", "  env:", "    API_TOKEN: ***", "    DB_PASSWORD: ***",
                     "Deploying with token *** to https://api." + domain(rng), "##[endgroup]"), "log"
    return lines("| Key | Value |", "|---|---|", f"| Secret key | `sk_live_{'•' * 20}{rs(rng, 4)}` |", f"| Access key | `AKIA{'*' * 12}{rs(rng, 4, UP + DIG)}` |",
                 f"| Token | `ghp_****************************{rs(rng, 4)}` |", "| Password | `********` |"), "md"


def c_vendor_docs(rng):
    ex = [["```ini", "[default]", "aws_access_key_id = AKIAIOSFODNN7EXAMPLE", "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "```"],
          ["The client sends (RFC 7617, user 'Aladdin', password 'open sesame'):", "", "    Authorization: Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ=="],
          ["RFC 6749 4.1.4 example response:", "```json", '{"access_token":"2YotnFZFEjr1zCsicMWpAA","token_type":"example","expires_in":3600,"refresh_token":"tGzv3JOkF0XG5Qx2TlKWIA"}', "```"],
          ["The example JWT from RFC 7519 section 3.1:", "",
           "    eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ.dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"],
          ["Client authentication example (RFC 6749 2.3.1):", "", "    Authorization: Basic czZCaGRSa3F0MzpnWDFmQmF0M2JW"],
          ["Slack's docs show the incoming webhook shape as", "", "    https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX"],
          ["AWS SigV4 docs example:", "", "    Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request"]]
    pick = rng.sample(ex, rng.randint(2, 4))
    out = [f"# {rng.choice(['Notes from the docs', 'Auth cheat sheet', 'Onboarding: how auth works', 'Reference examples (not real)'])} — {first(rng)}", ""]
    for p in pick:
        out += p + [""]
    out.append(rng.choice(["All of these are the published documentation examples.", "These are the examples from the RFCs/vendor docs.", f"see also https://docs.{domain(rng)}/auth"]))
    return lines(out), "md"


def c_encrypted(rng):
    k = rng.randrange(4)
    if k == 0:
        inner = hx(rng, 64) + "\n" + hx(rng, 64) + "\n" + hx(rng, rng.choice([64, 96, 128, 160]))
        return lines("$ANSIBLE_VAULT;1.1;AES256", wrap(inner.encode().hex(), 80)), "yml"
    if k == 1:
        enc = lambda n: f"ENC[AES256_GCM,data:{b64(rb(rng, n))},iv:{b64(rb(rng, 32))},tag:{b64(rb(rng, 16))},type:str]"
        return lines("apiVersion: v1", "kind: Secret", "metadata:", f"    name: {rng.choice(WORDS)}", "stringData:", f"    password: {enc(rng.randint(12, 30))}",
                     f"    token: {enc(rng.randint(30, 50))}", "sops:", "    age:", f"        - recipient: {bech32_encode('age', rb(rng, 32))}",
                     "          enc: |", "            -----BEGIN AGE ENCRYPTED FILE-----",
                     "            " + "\n            ".join(wrap(b64(rb(rng, 190)), 64).split("\n")), "            -----END AGE ENCRYPTED FILE-----",
                     f"    lastmodified: \"{iso(rng)}\"", f"    mac: {enc(32)}", "    version: 3.8.1"), "yaml"
    if k == 2:
        return lines("-----BEGIN PGP MESSAGE-----", "", wrap(b64(b"\x85\x02\x0c\x03" + rb(rng, rng.randint(300, 900))), 64),
                     "=" + b64(rb(rng, 3)), "-----END PGP MESSAGE-----"), "asc"
    return lines("apiVersion: bitnami.com/v1alpha1", "kind: SealedSecret", "metadata:", f"  name: {rng.choice(WORDS)}", "  namespace: prod", "spec:",
                 "  encryptedData:", f"    password: AgB{b64(rb(rng, 400))}", f"    username: AgC{b64(rb(rng, 300))}"), "yaml"


def c_public_design(rng):
    k = rng.randrange(4)
    if k == 0:
        proj = f"{rng.choice(WORDS)}-{rng.choice(WORDS)}"
        return lines("// firebase web config (safe to ship in the client bundle)", "const firebaseConfig = {",
                     f'  apiKey: "AIza{rs(rng, 35, URLA)}",', f'  authDomain: "{proj}.firebaseapp.com",', f'  projectId: "{proj}",',
                     f'  storageBucket: "{proj}.appspot.com",', f'  messagingSenderId: "{rng.randint(10 ** 11, 10 ** 12)}",',
                     f'  appId: "1:{rng.randint(10 ** 11, 10 ** 12)}:web:{hx(rng, 22)}"', "};"), "js"
    if k == 1:
        return lines("<!-- public client config, safe in page source -->", f'<script src="https://js.stripe.com/v3/"></script>', "<script>", f'  Sentry.init({{ dsn: "https://{hx(rng, 32)}@o{rng.randint(10 ** 5, 10 ** 7)}.ingest.sentry.io/{rng.randint(10 ** 6, 10 ** 7)}" }});',
                     f'  const stripe = Stripe("pk_live_{rs(rng, 99)}");', f"  const elements = stripe.elements({{ locale: '{rng.choice(['auto', 'de', 'en'])}' }});", "</script>"), "html"
    if k == 2:
        tok = "pk." + b64u(json.dumps({"u": first(rng), "a": rs(rng, 25, LOW + DIG)}, separators=(",", ":"))) + "." + rs(rng, 22, URLA)
        return lines("# public map token, URL-restricted in the Mapbox dashboard", f"VITE_MAPBOX_TOKEN={tok}",
                     f"VITE_RECAPTCHA_SITE_KEY=6L{rs(rng, 38, URLA)}", f"VITE_POSTHOG_KEY=phc_{rs(rng, 43)}", f"VITE_API_BASE=https://api.{domain(rng)}",
                     f"VITE_GA_ID=G-{rs(rng, 10, UP + DIG)}"), "env"
    return lines("const search = algoliasearch(", f'  "{rs(rng, 10, UP + DIG)}",  // app id', f'  "{hx(rng, 32)}"   // search-only API key (public)',
                 ");", f'const index = search.initIndex("{rng.choice(WORDS)}_products");'), "js"


def c_test_vectors(rng):
    k = rng.randrange(3)
    if k == 0:
        keys = [("0b" * 20, "Hi There"), ("4a656665", "what do ya want for nothing?"), (bytes(range(32)).hex(), rng.choice(WORDS) * 3)]
        out = ["# HMAC-SHA256 vectors (RFC 4231 cases 1-2 + one local case)", "VECTORS = ["]
        for kh, msg in keys:
            mac = hmac.new(bytes.fromhex(kh), msg.encode(), hashlib.sha256).hexdigest()
            out.append(f'    ("{kh}", {msg!r}, "{mac}"),')
        out += ["]", "", "def test_hmac():", "    for key, msg, want in VECTORS:",
                "        assert hmac.new(bytes.fromhex(key), msg.encode(), hashlib.sha256).hexdigest() == want"]
        return lines("import hashlib, hmac", "", out), "py"
    if k == 1:
        msgs = [rs(rng, rng.randint(0, 20), LOW) for _ in range(rng.randint(3, 6))]
        return lines("// SHA-256 known-answer tests", "var kat = []struct{ in, out string }{",
                     [f'\t{{"{m}", "{hashlib.sha256(m.encode()).hexdigest()}"}},' for m in msgs], "}"), "go"
    return lines("# RFC 6238 TOTP test seed (ASCII '12345678901234567890')", "SEED_SHA1 = '3132333435363738393031323334353637383930'",
                 "SEED_B32 = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ'", "# NIST SP 800-38A F.1.1 AES-128 key", "AES_KEY = '2b7e151628aed2a6abf7158809cf4f3c'",
                 f"CASES = [(59, '94287082'), (1111111109, '07081804'), ({rng.randint(2 * 10 ** 9, 2 * 10 ** 10)}, None)]"), "py"


def c_base64_data(rng):
    k = rng.randrange(3)
    if k == 0:
        w, h = rng.randint(1, 4), rng.randint(1, 4)
        raw = b"".join(b"\x00" + rb(rng, w * 3) for _ in range(h))
        def chunk(t, d):
            return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)
        png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")
        return lines(f"/* {rng.choice(WORDS)}.css -- inlined by build */", f".icon-{rng.choice(WORDS)} {{", f'  background-image: url("data:image/png;base64,{b64(png)}");',
                     f"  width: {rng.choice([12, 16, 24])}px;", f"  height: {rng.choice([12, 16, 24])}px;", "}"), "css"
    if k == 1:
        cfg = json.dumps({"theme": rng.choice(["dark", "light"]), "features": rng.sample(WORDS, 4), "version": rng.randint(1, 40)})
        return lines("apiVersion: v1", "kind: ConfigMap", "metadata:", f"  name: {rng.choice(WORDS)}-ui", "binaryData:", f"  settings.json: {b64(cfg)}",
                     f"  motd.txt: {b64('Welcome to ' + rng.choice(WORDS) + ' ' + str(rng.randint(1, 99)))}"), "yaml"
    body = "\n".join(f"{fullname(rng)},{rng.randint(18, 90)},{rng.choice(WORDS)}" for _ in range(rng.randint(5, 12)))
    return lines(f"--{hx(rng, 24)}", "Content-Type: text/csv; name=\"export.csv\"", "Content-Transfer-Encoding: base64", "",
                 wrap(b64(body), 76), f"--{hx(rng, 24)}--"), "eml"


def c_build_ids(rng):
    k = rng.randrange(3)
    if k == 0:
        return lines(f"#{rng.randint(5, 20)} [build 3/7] RUN npm ci", f"#{rng.randint(5, 20)} DONE {rng.randint(1, 90)}.{rng.randint(0, 9)}s",
                     "#22 exporting to image", "#22 exporting layers done", f"#22 writing image sha256:{hx(rng, 64)} done",
                     f"#22 naming to ghcr.io/{company(rng)}/{rng.choice(WORDS)}:{hx(rng, 7)} done",
                     f"{hx(rng, 12)}: Pushed", f"latest: digest: sha256:{hx(rng, 64)} size: {rng.randint(1000, 4000)}"), "log"
    if k == 1:
        return lines(f"Cache restored from key: node-cache-Linux-x64-npm-{hx(rng, 64)}", f"Run ID: {rng.randint(10 ** 9, 10 ** 10)}",
                     f"traceparent: 00-{hx(rng, 32)}-{hx(rng, 16)}-01", f"X-Amz-Cf-Id: {b64(rb(rng, 42)).replace('+', '-').replace('/', '_')}",
                     f"x-request-id: {uuid4(rng)}", f"Build ID: {b64u(rb(rng, 16))}", f"nonce={b64(rb(rng, 16))}",
                     f"etag: W/\"{hx(rng, 40)}\""), "txt"
    return lines([f'{{"ts":"{iso(rng)}","level":"info","trace_id":"{hx(rng, 32)}","span_id":"{hx(rng, 16)}","req":"{uuid4(rng)}","msg":"{rng.choice(["GET /healthz 200", "cache miss", "job done"])}"}}' for _ in range(rng.randint(5, 10))]), "jsonl"


def c_code_secrets(rng):
    k = rng.randrange(4)
    env = rng.choice(["WEBHOOK_SECRET", "GITHUB_WEBHOOK_SECRET", "SIGNING_SECRET", "STRIPE_ENDPOINT_SECRET", "HOOK_KEY"])
    fn = rng.choice(["verify", "check_signature", "is_valid", "verify_request", "authenticate"])
    hdr = rng.choice(["X-Hub-Signature-256", "Stripe-Signature", "X-Signature", "X-Slack-Signature"])
    algo = rng.choice(["sha256", "sha512", "sha1"])
    path = rng.choice(["/run/secrets/", "/var/run/secrets/app/", "/etc/" + rng.choice(WORDS) + "/"]) + rng.choice(["db_password", "token", "api_key"])
    if k == 0:
        return lines(f"# {rng.choice(WORDS)}/{rng.choice(['webhooks', 'security', 'auth'])}.py", "import hashlib", "import hmac", "import os", "",
                     f'SECRET = os.environ["{env}"].encode()', "", "",
                     f"def {fn}(body: bytes, {hdr.lower().replace('-', '_')}: str) -> bool:",
                     f"    expected = '{algo}=' + hmac.new(SECRET, body, hashlib.{algo}).hexdigest()",
                     f"    return hmac.compare_digest(expected, {hdr.lower().replace('-', '_')})"), "py"
    if k == 1:
        var = rng.choice(["API_TOKEN", "SERVICE_TOKEN", "UPSTREAM_KEY", env])
        return lines(f"// internal/{rng.choice(['config', 'cfg', 'settings'])}/load.go", "func loadConfig() (*Config, error) {", f'\ttoken := os.Getenv("{var}")', '\tif token == "" {',
                     f'\t\treturn nil, errors.New("{var} not set")', "\t}", f'\tpassword, err := os.ReadFile("{path}")',
                     "\tif err != nil {", f'\t\treturn nil, fmt.Errorf("read {path}: %w", err)', "\t}",
                     "\treturn &Config{Token: token, DBPassword: strings.TrimSpace(string(password))}, nil", "}"), "go"
    if k == 2:
        tbl = rng.choice(["users", "accounts", "members"])
        return lines("const bcrypt = require('bcrypt');", "", f"async function {rng.choice(['register', 'signUp', 'createUser'])}(email, password) {{",
                     f"  const hash = await bcrypt.hash(password, {rng.choice([10, 11, 12, 13])});", f"  return db.{tbl}.insert({{ email, password_hash: hash }});", "}", "",
                     f"async function {rng.choice(['login', 'signIn', 'checkCredentials'])}(email, password) {{", f"  const u = await db.{tbl}.findOne({{ email }});",
                     "  return u && bcrypt.compare(password, u.password_hash);", "}"), "js"
    db = rng.choice(WORDS)
    return lines("#!/bin/bash", "set -euo pipefail", f'read -rsp "{rng.choice(["DB password", "Password for " + db, "pg password"])}: " PGPASSWORD', "echo", "export PGPASSWORD",
                 f'pg_dump -h "${{DB_HOST:-{rng.choice(["localhost", "db", ip_priv(rng)])}}}" -U "${{DB_USER:-{db[:6]}}}" {db} > "backup-$(date +%F).sql"', "unset PGPASSWORD"), "sh"


def c_docs_formats(rng):
    rows = ["| GitHub classic PAT | `ghp_` + 36 alphanumerics (last 6 are a CRC32 checksum) |",
            "| GitHub fine-grained | `github_pat_` + 22 + `_` + 59 chars |", "| GitLab PAT | `glpat-` + 20 chars |",
            "| AWS access key id | `AKIA` + 16 upper-case base32 chars |", "| Slack bot | `xoxb-<team>-<bot>-<secret>` |",
            "| Stripe | `sk_live_` / `rk_live_` (secret), `pk_live_` (publishable) |", "| npm | `npm_` + 36 chars |",
            "| Hugging Face | `hf_` + 34 letters |", "| DigitalOcean | `dop_v1_` + 64 hex |",
            f"| {company(rng)} internal | `{company(rng)[:4]}_` + {rng.choice([32, 40, 48])} base62 |"]
    regs = [r"(ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36}", r"AKIA[A-Z2-7]{16}", r"glpat-[A-Za-z0-9_-]{20}", r"npm_[A-Za-z0-9]{36}",
            r"dop_v1_[a-f0-9]{64}", r"hf_[A-Za-z]{34}"]
    if rng.random() < 0.5:
        return lines(f"# {rng.choice(['Token formats we scan for', 'Credential hygiene', 'Rotating API tokens', 'Secrets 101'])} (rev {rng.randint(2, 40)})", "",
                     "| vendor | shape |", "|---|---|", rng.sample(rows, rng.randint(4, len(rows))), "",
                     "Regex we use in pre-commit:", "", "```", rng.sample(regs, rng.randint(2, len(regs))), "```", "",
                     rng.choice(["Never paste a real token into an issue.", "If one leaks, revoke first, then rotate.", f"Ask #{rng.choice(['security', 'infra'])} if unsure."])), "md"
    pref = rng.choice(["ghp_", "glpat-", "sk_live_", "xoxb-", "AKIA", "npm_", "hf_"])
    return lines("def looks_like_token(s: str) -> bool:", f'    """True for strings shaped like a {pref} credential (format check only)."""',
                 f"    if not s.startswith({pref!r}):", "        return False", f"    body = s[{len(pref)}:]",
                 f"    return len(body) >= {rng.randint(16, 36)} and body.isalnum()", "", "",
                 "def test_rejects_placeholders():", f"    assert not looks_like_token({(pref + 'x' * rng.randint(3, 8))!r})",
                 f"    assert not looks_like_token('<{rng.choice(['your-token', 'TOKEN', 'api key'])}>')"), "py"


def c_html_sri(rng):
    n = b64(rb(rng, 16))
    return lines("<!doctype html>", "<html>", "<head>",
                 f'  <meta http-equiv="Content-Security-Policy" content="script-src \'self\' \'nonce-{n}\' \'sha256-{b64(rb(rng, 32))}\'">',
                 f'  <link rel="stylesheet" href="/assets/index-{b64u(rb(rng, 6))}.css" integrity="sha384-{b64(rb(rng, 48))}" crossorigin="anonymous">',
                 f'  <script src="https://cdn.jsdelivr.net/npm/{rng.choice(["bootstrap@5.3.3", "alpinejs@3.14.1", "htmx.org@1.9.12"])}/dist/x.min.js" integrity="sha384-{b64(rb(rng, 48))}" crossorigin="anonymous"></script>',
                 f'  <script nonce="{n}">window.__BUILD__ = "{hx(rng, 40)}";</script>', "</head>",
                 f'<body><div id="app" data-v-{hx(rng, 8)}></div><script type="module" src="/assets/index-{hx(rng, 8)}.js"></script></body>', "</html>"), "html"


def c_crypto_addr(rng):
    out = []
    for _ in range(rng.randint(4, 9)):
        t = rng.randrange(3)
        if t == 0:
            out.append(f"BTC  {bech32_encode('bc', rb(rng, 20), (0,))}")
        elif t == 1:
            out.append(f"ETH  0x{hx(rng, 40)}")
        else:
            out.append(f"tx   0x{hx(rng, 64)}")
    return lines(rng.choice(["# donation addresses + recent payout txs (public)", "Payouts this week:", "## Wallets (watch-only)"]), out,
                 f"block {rng.randint(17000000, 21000000)} hash 0x{hx(rng, 64)}"), "txt"


def c_secret_named(rng):
    k = rng.randrange(3)
    if k == 0:
        kv = [f"  password_min_length: {rng.randint(8, 16)}", f"  password_require_symbols: {rng.choice(['true', 'false'])}",
              f"  password_reset_token_ttl: {rng.choice([900, 1800, 3600, 7200])}", "  api_key_header: X-API-Key",
              f"  token_expiry: {rng.choice(['15m', '1h', '24h', '7d'])}", f"  secret_name: {rng.choice(WORDS)}-credentials",
              f"  secret_file: /run/secrets/{rng.choice(WORDS)}", f"  session_cookie_name: {rng.choice(['sid', '__Host-session', 'app_session'])}",
              f"  private_key_path: /etc/ssl/private/{rng.choice(WORDS)}.key", f"  passwordless: {rng.choice(['true', 'false'])}",
              f"  auth_token_length: {rng.choice([32, 48, 64])}", f"  max_password_attempts: {rng.randint(3, 10)}"]
        return lines("security:", rng.sample(kv, rng.randint(6, len(kv)))), "yaml"
    if k == 1:
        return lines("openapi: 3.0.3", "info:", f"  title: {rng.choice(WORDS).capitalize()} {rng.choice(['API', 'Service', 'Gateway'])}", f"  version: {rng.randint(0, 4)}.{rng.randint(0, 30)}.{rng.randint(0, 9)}",
                     "components:", "  securitySchemes:", "    ApiKeyAuth:", "      type: apiKey", "      in: header",
                     f"      name: {rng.choice(['X-API-Key', 'X-Auth-Token', 'api-key'])}", "    BearerAuth:", "      type: http", "      scheme: bearer",
                     "      bearerFormat: JWT", "  schemas:", "    Login:", "      type: object", "      properties:",
                     "        password:", "          type: string", "          format: password", f"          minLength: {rng.randint(8, 14)}",
                     "        token:", "          type: string", f"          example: {rng.choice(['<token>', 'string', '...'])}"), "yaml"
    return lines("[auth]", f"password_hash_algorithm = {rng.choice(['argon2id', 'bcrypt', 'scrypt'])}", f"token_ttl_seconds = {rng.randint(300, 86400)}",
                 f"secret_backend = {rng.choice(['vault', 'aws-secrets-manager', 'env'])}", f"api_key_prefix = {company(rng)[:3]}_",
                 f"rotate_keys_every = {rng.choice(['30d', '90d'])}", "store_plaintext_passwords = false"), "ini"


def c_chat_about(rng):
    a, b = rng.sample(FIRST, 2)
    msgs = [f"{a}: rotated the {rng.choice(['stripe', 'github', 'db', 'sentry'])} key, new one is in 1Password under '{rng.choice(WORDS)} prod'",
            f"{b}: thx. did you revoke the old one?", f"{a}: yep, revoked at {dt(rng).strftime('%H:%M')}",
            f"{b}: pls don't paste it here, DM via {rng.choice(['signal', 'the vault share link', 'bitwarden send'])}",
            f"{a}: the password is the usual pattern but with this year", f"{b}: still getting 401, token ends in ...{rs(rng, 4)}?",
            f"{a}: ping me and I'll read it to you over the phone"]
    fmt = rng.randrange(2)
    idx = sorted(rng.sample(range(len(msgs)), rng.randint(5, 7)))
    picked = [msgs[j] for j in idx]
    if fmt:
        t0 = dt(rng)
        picked = [f"[{(t0 + datetime.timedelta(minutes=i)).strftime('%H:%M')}] {m}" for i, m in enumerate(picked)]
    return lines(maybe(rng, 0.4, f"#{rng.choice(['ops', 'sec', 'dev', 'homelab'])}"), picked), "txt"


def c_fingerprints(rng):
    k = rng.randrange(3)
    if k == 0:
        fp = hx(rng, 40).upper()
        return lines("$ gpg --list-keys", "/home/" + first(rng) + "/.gnupg/pubring.kbx", "-" * 30,
                     f"pub   ed25519 {dt(rng).strftime('%Y-%m-%d')} [SC]", f"      {fp}", f"uid           [ultimate] {fullname(rng)} <{first(rng)}@{domain(rng)}>",
                     f"sub   cv25519 {dt(rng).strftime('%Y-%m-%d')} [E]", "", f"$ gpg --recv-keys {fp[-16:]}"), "txt"
    if k == 1:
        return lines(f"The authenticity of host '{hostname(rng)} ({ip_priv(rng)})' can't be established.",
                     f"ED25519 key fingerprint is SHA256:{b64(rb(rng, 32)).rstrip('=')}.", "This key is not known by any other names.",
                     "Are you sure you want to continue connecting (yes/no/[fingerprint])? yes",
                     f"$ ssh-keygen -lf ~/.ssh/id_ed25519.pub", f"256 SHA256:{b64(rb(rng, 32)).rstrip('=')} {first(rng)}@laptop (ED25519)"), "txt"
    return lines(f"$ openssl x509 -in {rng.choice(WORDS)}.crt -noout -fingerprint -sha256",
                 "sha256 Fingerprint=" + ":".join(hx(rng, 2).upper() for _ in range(32)),
                 f'pin-sha256="{b64(rb(rng, 32))}"', f"SPKI: {hx(rng, 64)}", f"serial={hx(rng, 32).upper()}", f"notAfter={dt(rng).strftime('%b %d %H:%M:%S %Y')} GMT"), "txt"


def c_hexdump(rng):
    if rng.random() < 0.5:
        data = b"\x7fELF\x02\x01\x01\x00" + rb(rng, rng.randint(100, 400))
        out = []
        for off in range(0, len(data), 16):
            ch = data[off:off + 16]
            hexpart = " ".join(ch[i:i + 2].hex() for i in range(0, len(ch), 2))
            out.append(f"{off:08x}: {hexpart:<39}  {''.join(chr(c) if 32 <= c < 127 else '.' for c in ch)}")
        return lines(f"$ xxd {rng.choice(WORDS)}.bin | head -{len(out)}", out), "txt"
    pkt = rb(rng, rng.randint(60, 200))
    out = [f"{dt(rng).strftime('%H:%M:%S')}.{rng.randint(100000, 999999)} IP {ip_priv(rng)}.{rng.randint(1024, 65000)} > {ip_priv(rng)}.443: Flags [P.], length {len(pkt)}"]
    for off in range(0, len(pkt), 16):
        ch = pkt[off:off + 16]
        out.append(f"\t0x{off:04x}:  " + " ".join(ch[i:i + 2].hex() for i in range(0, len(ch), 2)))
    return lines(out), "txt"


def c_bio(rng):
    out = [rng.choice([f"; exported {dt(rng).strftime('%Y-%m-%d')} from {rng.choice(['UniProt', 'NCBI', 'Ensembl'])}", f"# {rng.choice(WORDS)} panel, batch {rng.randint(1, 99)}", f"; query set {hx(rng, 6)}"])]
    for _ in range(rng.randint(1, 3)):
        prot = rng.random() < 0.5
        alpha = "ACDEFGHIKLMNPQRSTVWY" if prot else "ACGT"
        out.append(f">{rng.choice(['sp|P', 'tr|Q', 'NM_', 'XM_'])}{rng.randint(10000, 99999)}{rng.choice(['|', '.1 '])}{rng.choice(WORDS).upper()} {rng.choice(['Homo sapiens', 'Mus musculus', 'Danio rerio'])}")
        out += wrap(rs(rng, rng.randint(190, 600), alpha), 60).split("\n")
    return lines(out), "fasta"


CLEANS = [("git-hashes", c_git_hashes), ("file-digests", c_file_digests), ("lockfile-checksums", c_lockfiles),
          ("ssh-public-keys", c_ssh_public), ("x509-certificates", c_x509), ("jwks-public", c_jwks),
          ("cloud-resource-ids", c_cloud_ids), ("placeholders", c_placeholders), ("secret-store-refs", c_secret_refs),
          ("masked-redacted", c_masked), ("vendor-doc-examples", c_vendor_docs), ("encrypted-blobs", c_encrypted),
          ("public-by-design", c_public_design), ("test-vectors", c_test_vectors), ("base64-data", c_base64_data),
          ("build-trace-ids", c_build_ids), ("code-handling-secrets", c_code_secrets), ("docs-token-formats", c_docs_formats),
          ("html-sri-nonces", c_html_sri), ("crypto-addresses", c_crypto_addr), ("secret-named-settings", c_secret_named),
          ("chat-about-secrets", c_chat_about), ("key-fingerprints", c_fingerprints), ("hexdumps", c_hexdump),
          ("bio-sequences", c_bio)]


POSITIVES = [
    # context, kind, ext, generator
    ("routeros-export", "human password: Wi-Fi WPA passphrase in a RouterOS export", "rsc", p_routeros),
    ("cisco-running-config", "human password: local user 'password 0' in IOS config", "txt", p_cisco),
    ("wpa-supplicant", "human password: Wi-Fi PSK in wpa_supplicant.conf", "conf", p_wpa),
    ("minecraft-properties", "human password: rcon.password in server.properties", "properties", p_minecraft),
    ("srcds-server-cfg", "human password: rcon_password in Source server.cfg", "cfg", p_srcds),
    ("compose-nextcloud", "human password: MYSQL_PASSWORD in docker-compose anchor", "yml", p_compose_nextcloud),
    ("ansible-become", "human password: ansible become password (group_vars / inventory)", "yml", p_ansible),
    ("wp-config", "human password: DB_PASSWORD in wp-config.php", "php", p_wpconfig),
    ("slack-thread", "human password: typed in a chat thread", "txt", p_slack),
    ("helpdesk-email", "human password: temporary password in a service-desk email", "eml", p_helpdesk_email),
    ("bash-history", "human password: mysql -p on the command line", "txt", p_bash_history),
    ("powershell-transcript", "human password: ConvertTo-SecureString -AsPlainText", "txt", p_powershell),
    ("android-signing", "human password: keystore storePassword", "properties", p_android_signing),
    ("filezilla-sitemanager", "human password: FileZilla <Pass encoding=base64> (encoded)", "xml", p_filezilla),
    ("dbt-profiles", "human password: warehouse password in dbt profiles.yml", "yml", p_dbt),
    ("asterisk-sip", "human password: SIP auth secret in pjsip.conf / sip.conf", "conf", p_asterisk),
    ("ipmitool-session", "human password: BMC password via ipmitool -P", "txt", p_ipmitool),
    ("windows-unattend", "human password: AdministratorPassword PlainText in unattend.xml", "xml", p_unattend),
    ("curl-verbose-basic", "human password: user:password in Authorization: Basic (encoded)", "txt", p_curl_basic),
    ("k8s-secret-manifest", "generated database password in Secret data (encoded)", "yaml", p_k8s_secret),
    ("gha-workflow", "GitHub classic PAT ghp_ (CRC32 checksum)", "yml", p_gha),
    ("gitlab-ci", "GitLab PAT glpat-", "yml", p_gitlab),
    ("jenkins-console", "Jenkins API token (11 + 32 hex) in curl -u", "log", p_jenkins),
    ("azure-pipelines", "Azure Storage account key", "yml", p_azure_pipelines),
    ("aws-cli-session", "AWS secret access key", "txt", p_aws_session),
    ("terraform-tfvars", "DigitalOcean token dop_v1_", "tfvars", p_tfvars),
    ("django-settings", "Django SECRET_KEY", "py", p_django),
    ("java-jdbc-stacktrace", "generated DB password in a JDBC URL in a Spring/Hikari log", "log", p_java_jdbc),
    ("node-mongo-error", "generated password in mongodb+srv:// userinfo", "log", p_node_mongo),
    ("go-stripe", "Stripe live secret key sk_live_", "go", p_go_stripe),
    ("rust-anthropic", "Anthropic API key sk-ant-api03-", "rs", p_rust_anthropic),
    ("appsettings-sendgrid", "SendGrid API key SG.", "json", p_appsettings),
    ("jupyter-openai", "OpenAI project key sk-proj-", "ipynb", p_notebook),
    ("r-huggingface", "Hugging Face token hf_", "R", p_r_hf),
    ("irc-telegram", "Telegram bot token", "log", p_irc_telegram),
    ("issue-tailscale", "Tailscale auth key tskey-auth-", "md", p_issue_tailscale),
    ("forum-twilio", "Twilio auth token (32 hex)", "md", p_forum_twilio),
    ("raw-http-jwt", "JWT bearer access token", "http", p_raw_http_jwt),
    ("netscape-cookies", "session cookie value", "txt", p_netscape_cookies),
    ("openssh-key-paste", "OpenSSH ed25519 private key", "txt", p_openssh_key),
    ("openvpn-inline-key", "EC private key (PKCS#8 / SEC1) inline in .ovpn", "ovpn", p_openvpn),
    ("wireguard-conf", "WireGuard private key", "conf", p_wireguard),
    ("monitoring-discord-webhook", "Discord webhook URL with token", "json", p_uptime_kuma),
    ("python-slack-webhook", "Slack incoming webhook URL", "py", p_py_slack),
    ("rclone-b2", "Backblaze B2 application key", "conf", p_rclone_b2),
    ("vault-login-output", "HashiCorp Vault service token hvs.", "txt", p_vault_login),
    ("systemd-grafana", "Grafana service account token glsa_", "service", p_systemd_grafana),
    ("nginx-origin-header", "shared origin-verify header secret", "conf", p_nginx_origin),
    ("gcp-service-account", "RSA private key (PKCS#8, JSON-escaped) in a GCP key file", "json", p_gcp_sa),
    ("pip-index-userinfo", "repository token in https://user:token@ index URL", "conf", p_pip_userinfo),
    ("sops-age-key", "age secret key AGE-SECRET-KEY-1 (bech32)", "txt", p_sops_age),
    ("dockerfile-doppler", "Doppler service token dp.st.", "Dockerfile", p_dockerfile_doppler),
    ("kafka-client-properties", "Confluent Cloud API secret in sasl.jaas.config", "properties", p_kafka),
    ("neovim-plugin-lua", "gateway secret under an unusual key name", "lua", p_neovim_lua),
    ("sentryclirc", "Sentry user auth token sntryu_", "ini", p_sentryclirc),
]


def positives(half, per_template):
    out = []
    for ctx, kind, ext, fn in POSITIVES:
        for i in range(per_template):
            rng = random.Random(f"{half}:{ctx}:{i}")
            value, text = fn(rng)
            out.append((f"{half}-pos-{ctx}-{i:02d}.{ext}", ctx, kind, value, text))
    return out


def cleans(half, per_family):
    out = []
    for fam, fn in CLEANS:
        for i in range(per_family):
            rng = random.Random(f"{half}:{fam}:{i}")
            text, ext = fn(rng)
            out.append((f"{half}-clean-{fam}-{i:02d}.{ext}", fam, text))
    return out


def _nlines(t):
    return len(t.splitlines())


def selfcheck(per_template=6, per_family=20):
    errs = []
    P = {h: positives(h, per_template) for h in HALVES}
    C = {h: cleans(h, per_family) for h in HALVES}
    assert len(POSITIVES) == 55 and len({p[0] for p in POSITIVES}) == 55, "55 distinct templates"
    assert len(CLEANS) == 25 and len({c[0] for c in CLEANS}) == 25, "25 distinct families"
    assert len(ENCODED_CONTEXTS) <= 3 and ENCODED_CONTEXTS <= {p[0] for p in POSITIVES}
    for h in HALVES:
        if len(P[h]) != 55 * per_template:
            errs.append(f"{h}: positives {len(P[h])}")
        if len(C[h]) != 25 * per_family:
            errs.append(f"{h}: cleans {len(C[h])}")
        # determinism
        if positives(h, per_template) != P[h] or cleans(h, per_family) != C[h]:
            errs.append(f"{h}: not deterministic")
    names = [p[0] for h in HALVES for p in P[h]] + [c[0] for h in HALVES for c in C[h]]
    if len(names) != len(set(names)):
        errs.append("duplicate names")
    for h in HALVES:
        for name, ctx, kind, value, text in P[h]:
            n = _nlines(text)
            if not 5 <= n <= 120:
                errs.append(f"{name}: {n} lines")
            if ctx in ENCODED_CONTEXTS:
                if b64(value) not in text:
                    errs.append(f"{name}: base64 of value missing")
                if value in text:
                    errs.append(f"{name}: encoded context holds raw value")
            elif value not in text:
                errs.append(f"{name}: value missing")
        for name, fam, text in C[h]:
            n = _nlines(text)
            if not 5 <= n <= 120:
                errs.append(f"{name}: {n} lines")
    allvals = [(p[0], p[3]) for h in HALVES for p in P[h]]
    allclean = "\n\0".join(c[2] for h in HALVES for c in C[h])
    for name, v in allvals:
        if v in allclean or b64(v) in allclean:
            errs.append(f"{name}: value occurs in a clean text")
    # no repeats within a template / family
    for h in HALVES:
        seen = {}
        for name, ctx, kind, value, text in P[h]:
            if text in seen.setdefault(ctx, set()):
                errs.append(f"{name}: repeated text in template")
            seen[ctx].add(text)
        seen = {}
        for name, fam, text in C[h]:
            if text in seen.setdefault(fam, set()):
                errs.append(f"{name}: repeated text in family")
            seen[fam].add(text)
    # halves disjoint
    ta = {p[4] for p in P["tenth"]} | {c[2] for c in C["tenth"]}
    tb = {p[4] for p in P["twin"]} | {c[2] for c in C["twin"]}
    if ta & tb:
        errs.append(f"halves share {len(ta & tb)} texts")
    va = {p[3] for p in P["tenth"]}
    vb = {p[3] for p in P["twin"]}
    if va & vb:
        errs.append(f"halves share {len(va & vb)} values")
    for h, other in (("tenth", "twin"), ("twin", "tenth")):
        otext = "\n\0".join(p[4] for p in P[other])
        for p in P[h]:
            if p[3] in otext:
                errs.append(f"{p[0]}: value occurs in the other half")
    # every value unique within a half
    for h in HALVES:
        vs = [p[3] for p in P[h]]
        if len(vs) != len(set(vs)):
            errs.append(f"{h}: repeated values")
    lc = [_nlines(p[4]) for h in HALVES for p in P[h]] + [_nlines(c[2]) for h in HALVES for c in C[h]]
    return errs, P, C, (min(lc), max(lc))


def main(argv):
    errs, P, C, (lo, hi) = selfcheck()
    for h in HALVES:
        print(f"{h}: {len(P[h])} positives ({len(POSITIVES)} templates x 6), {len(C[h])} cleans ({len(CLEANS)} families x 20)")
    n_names = sum(len(P[h]) + len(C[h]) for h in HALVES)
    print(f"unique names: {n_names}; lines per text: {lo}-{hi} (limit 5-120)")
    print(f"encoded contexts: {len(ENCODED_CONTEXTS)}; values present: ok" if not any("value missing" in e or "base64" in e for e in errs) else "values: FAIL")
    print("checks: deterministic, no repeats within template/family, no value in any clean text, halves share no text/value")
    if "--write" in argv:
        import os
        d = argv[argv.index("--write") + 1]
        os.makedirs(d, exist_ok=True)
        for h in HALVES:
            for name, *_, text in P[h]:
                open(os.path.join(d, name), "w").write(text)
            for name, _, text in C[h]:
                open(os.path.join(d, name), "w").write(text)
    if errs:
        print(f"SELF-CHECK FAILED ({len(errs)} problems):")
        for e in errs[:40]:
            print("  " + e)
        return 1
    print("SELF-CHECK PASSED")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
