"""Shared by the daemon benchmarks (scripts/bench-lib/daemon, scripts/bench-lib/mpd):
the release build of the drivers, a qplayd and an MPD of our own in a work folder, a
blocking line client for set-up steps (never for timing), and the median over rounds.
"""
import json
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def log(text):
    print(text, file=sys.stderr, flush=True)


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)


def build(products):
    """Release builds of `products`; their paths by name."""
    for product in products:
        log(f"building {product} (release)...")
        run(["swift", "build", "-c", "release", "--product", product], cwd=ROOT, stdout=subprocess.DEVNULL)
    out = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT,
                         check=True, capture_output=True, text=True).stdout.strip()
    return {p: os.path.join(out, p) for p in products}


def ensure_mpd():
    if shutil.which("mpd") is None or shutil.which("mpc") is None:
        subprocess.run(["bash", "-c", f". '{ROOT}/scripts/lib/packages.sh'; ensure_packages mpd mpc"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return shutil.which("mpd") is not None and shutil.which("mpc") is not None


def free_tcp_port():
    """A loopback port nothing listens on now (another program may take it before we do;
    the daemons fail loudly then)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def generated_library(work, size):
    """scripts/gen-library's SIZE tracks (seed 1) in WORK, made once; its manifest.

    MPD 0.23 cannot reload a database holding the 1 MB title tag: it keeps the songs
    read before it and drops the rest (see `scripts/bench library`). The daemons here may
    restart on an existing index, so that one file goes, for both."""
    music = os.path.join(work, f"library-{size}")
    if not os.path.exists(os.path.join(music, "manifest.json")):
        t0 = time.perf_counter()
        run([os.path.join(ROOT, "scripts", "gen-library"), music, str(size), "--seed", "1"], stdout=sys.stderr)
        log(f"generated {size} tracks in {time.perf_counter() - t0:.1f} s")
    huge = os.path.join(music, "BAD", "huge-tag.mp3")
    if os.path.exists(huge):
        os.remove(huge)
    with open(os.path.join(music, "manifest.json"), encoding="utf-8") as f:
        return music, json.load(f)


def memory_mb(pid):
    """VmRSS and RssAnon (the part not backed by files: heap, stacks) in MB."""
    found = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "RssAnon"):
                found[key] = int(value.split()[0]) / 1024
    return found.get("VmRSS", 0.0), found.get("RssAnon", 0.0)


def cpu_ticks(pid):
    """User + system CPU of PID so far, in clock ticks (/proc/PID/stat)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rpartition(")")[2].split()
    return int(fields[11]) + int(fields[12])


def wait_quiet(pid, quiet=1.0, deadline=60):
    """Returns once PID used no CPU for QUIET seconds (work it does after answering, such
    as qplayd building its search table, is then done), or after DEADLINE seconds."""
    end = time.time() + deadline
    last, since = cpu_ticks(pid), time.time()
    while time.time() < end:
        time.sleep(0.1)
        now = cpu_ticks(pid)
        if now != last:
            last, since = now, time.time()
        elif time.time() - since >= quiet:
            return
    log(f"process {pid} still busy after {deadline} s; measuring anyway")


def driver_json(bins, *args):
    out = run([bins["qplay-bench-daemon"], *map(str, args)], capture_output=True, text=True).stdout
    return json.loads(out)


def stop_process(process):
    if process is None or process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=60)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def median_of(rounds):
    """Each number the median over the rounds (recursively); other values from the first."""
    first = rounds[0]
    if isinstance(first, dict):
        return {k: median_of([r[k] for r in rounds]) for k in first}
    if isinstance(first, list):
        return [median_of([r[i] for r in rounds]) for i in range(len(first))]
    if isinstance(first, (int, float)) and not isinstance(first, bool):
        return statistics.median(rounds)
    return first


class LineClient:
    """A small blocking client for the set-up steps (not for timing). ADDRESS is a Unix
    socket path or HOST:PORT."""

    def __init__(self, address, deadline=60):
        end = time.time() + deadline
        while True:
            try:
                if address.startswith("/"):
                    self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                    self.sock.connect(address)
                else:
                    host, _, port = address.rpartition(":")
                    self.sock = socket.create_connection((host, int(port)))
                break
            except (FileNotFoundError, ConnectionRefusedError):
                self.sock.close()
                if time.time() > end:
                    raise RuntimeError(f"nothing answers on {address}")
                time.sleep(0.02)
        self.file = self.sock.makefile("rb")
        self.greeting = self.file.readline()

    def close(self):
        self.file.close()
        self.sock.close()


def mpd_quote(argument):
    """An argument as MPD's tokenizer reads it back."""
    return '"' + argument.replace("\\", "\\\\").replace('"', '\\"') + '"'


class MPDClient(LineClient):
    """MPD's text protocol, one request at a time; an ACK raises."""

    def __init__(self, address, deadline=60):
        super().__init__(address, deadline)
        if not self.greeting.startswith(b"OK MPD"):
            raise RuntimeError(f"{address} greets with {self.greeting!r}, not MPD's")

    def ask(self, line):
        self.sock.sendall(line.encode() + b"\n")
        lines = []
        while True:
            reply = self.file.readline()
            if not reply:
                raise RuntimeError("the daemon closed the connection")
            if reply == b"OK\n":
                return lines
            if reply.startswith(b"ACK"):
                raise RuntimeError(f"{line[:80]!r}: {reply.decode(errors='replace').strip()}")
            lines.append(reply)

    def fields(self, line):
        return dict(l.decode(errors="replace").rstrip("\n").partition(": ")[::2] for l in self.ask(line))

    def add_all(self, paths):
        """Appends PATHS to the queue in one command list."""
        self.ask("\n".join(["command_list_begin", *(f"add {mpd_quote(p)}" for p in paths), "command_list_end"]))


class QPlayDaemon:
    """A qplayd of our own: configs, data and socket in the work folder, the `output`
    (`null` unless told), no inotify watch (as MPD's auto_update "no"); `mpd_addresses`
    are handed on as `--mpd ADDRESS` each."""

    def __init__(self, bins, music, work, mpd_addresses=(), output="null", extra_args=(), config=""):
        self.bins = bins
        self.extra_args = list(extra_args)
        self.output = output
        self.music = music
        self.dir = os.path.join(work, "qplay")
        self.data = os.path.join(self.dir, "data")
        self.sock_path = os.path.join(self.dir, "run", "qplay.sock")
        self.mpd_addresses = list(mpd_addresses)
        os.makedirs(self.data, exist_ok=True)
        self.configs = {}
        for name, scan in (("default", None), ("noscan", "false")):
            path = os.path.join(self.dir, f"{name}.toml")
            with open(path, "w") as f:
                f.write('log_level = "warning"\n')
                # MPD runs with auto_update "no": neither daemon watches the folder.
                f.write("watch = false\n")
                f.write(config)
                if scan:
                    f.write(f"scan_on_start = {scan}\n")
            self.configs[name] = path
        self.process = None

    def command(self, config="noscan"):
        mpd = [arg for address in self.mpd_addresses for arg in ("--mpd", address)]
        return [self.bins["qplayd"], "--config", self.configs[config], "--music", self.music,
                "--socket", self.sock_path, "--data-dir", self.data, "--output", self.output, *mpd, *self.extra_args]

    def cli(self, *args, capture=False):
        cmd = [self.bins["qplay"], *args, "--socket", self.sock_path]
        return run(cmd, capture_output=True, text=True).stdout if capture else run(cmd, stdout=subprocess.DEVNULL)

    def start(self, config="noscan"):
        self.process = subprocess.Popen(self.command(config), stdout=subprocess.DEVNULL,
                                        stderr=open(os.path.join(self.dir, "qplayd.log"), "a"))
        client = LineClient(self.sock_path)
        client.close()

    def prepare(self):
        """Builds the index and leaves a paused queue in the state database."""
        self.start("noscan")
        t0 = time.perf_counter()
        self.cli("update", "--wait")
        log(f"qplay: index built in {time.perf_counter() - t0:.1f} s")
        return time.perf_counter() - t0

    def queue_some(self, word):
        self.cli("add", word)
        self.cli("pause")

    def stop(self):
        stop_process(self.process)
        self.process = None


class MPD:
    """An MPD of our own: config, database, state and socket in the work folder; with
    `tcp_port`, also listening on 127.0.0.1:PORT. `output`: the audio_output block's
    settings (a null output unless told); `settings`: more lines for mpd.conf (a setting
    the config here already has cannot be given twice)."""

    NULL_OUTPUT = 'type "null"\n    name "null"'

    def __init__(self, music, work, tcp_port=None, output=NULL_OUTPUT, settings=""):
        self.dir = os.path.join(work, "mpd")
        os.makedirs(self.dir, exist_ok=True)
        self.sock_path = os.path.join(self.dir, "mpd.sock")
        self.tcp_address = f"127.0.0.1:{tcp_port}" if tcp_port else None
        self.conf = os.path.join(self.dir, "mpd.conf")
        tcp = f'bind_to_address "127.0.0.1"\nport "{tcp_port}"\n' if tcp_port else ""
        with open(self.conf, "w") as f:
            f.write(f'''music_directory "{music}"
db_file "{self.dir}/mpd.db"
state_file "{self.dir}/state"
log_file "{self.dir}/mpd.log"
pid_file "{self.dir}/mpd.pid"
bind_to_address "{self.sock_path}"
{tcp}auto_update "no"
zeroconf_enabled "no"
max_output_buffer_size "1048576"
{settings}
audio_output {{
    {output}
}}
''')
        self.process = None
        self.client = None

    def command(self):
        return ["mpd", "--no-daemon", self.conf]

    def start(self):
        if os.path.exists(self.sock_path):
            os.remove(self.sock_path)
        self.process = subprocess.Popen(self.command(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.client = MPDClient(self.sock_path)
        if self.tcp_address:
            # MPD goes on without a TCP port it could not bind, and another daemon may
            # have it: a mark set over the socket must show over TCP.
            mark = str(random.randint(11, 99))
            self.ask(f"crossfade {mark}")
            other = MPDClient(self.tcp_address, deadline=5)
            try:
                if other.fields("status").get("xfade") != mark:
                    raise RuntimeError(f"{self.tcp_address} is not this MPD's (port taken?)")
            finally:
                other.close()
            self.ask("crossfade 0")

    def ask(self, line):
        return self.client.ask(line)

    def fields(self, line):
        return self.client.fields(line)

    def prepare(self):
        self.start()
        t0 = time.perf_counter()
        self.ask("update")
        while "updating_db" in self.fields("status"):
            time.sleep(0.01)
        log(f"mpd: database built in {time.perf_counter() - t0:.1f} s")

    def queue_some(self, word):
        self.ask(f'searchadd title "{word}"')
        self.ask("play")
        self.ask("pause 1")

    def stop(self):
        if self.process and self.client:
            self.client.close()
            self.client = None
        stop_process(self.process)
        self.process = None
