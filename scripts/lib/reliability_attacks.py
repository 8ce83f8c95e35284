"""The hostile-client rows of `scripts/bench reliability` (`--only attacks`): each attack
run against qplayd (over its MPD frontend where MPD's protocol is the attack, over its
JSON socket otherwise) and, where it applies, against MPD started the same way in the
same run. Each section appends table rows (name, figure, note) to `Context.rows`;
nothing passes or fails.
"""
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time

REGEX_QUERY = "search \"(file =~ '^(.*)*Z$')\""


def log(text):
    print(text, file=sys.stderr, flush=True)


def rss_mb(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except FileNotFoundError:
        pass
    return 0.0


def free_tcp_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class RSSPeak:
    """Samples PID's VmRSS every 50 ms on a thread until stopped; `peak` is the largest."""

    def __init__(self, pid):
        self.pid, self.peak, self.running = pid, rss_mb(pid), True
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        while self.running:
            self.peak = max(self.peak, rss_mb(self.pid))
            time.sleep(0.05)

    def stop(self):
        self.running = False
        self.thread.join()
        return self.peak


def mpd_answer_complete(tail):
    """Whether TAIL (the last bytes read) ends an MPD answer: a last line `OK` or an ACK."""
    if not tail.endswith(b"\n"):
        return False
    last = tail[:-1].rsplit(b"\n", 1)[-1]
    return last == b"OK" or last.startswith(b"ACK [")


class MPDLine:
    """A raw MPD protocol connection over TCP with a timeout: the greeting's time, and
    requests read whole (to OK or ACK) in big chunks."""

    def __init__(self, port, timeout=10.0, rcvbuf=None):
        t0 = time.perf_counter()
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if rcvbuf:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.sock.settimeout(timeout)
        self.sock.connect(("127.0.0.1", port))
        self.greeting = self.read_line()
        self.greet_ms = (time.perf_counter() - t0) * 1e3
        if not self.greeting.startswith(b"OK MPD"):
            raise RuntimeError("refused: " + self.greeting.decode(errors="replace").strip()[:48])

    def read_line(self):
        data = b""
        while not data.endswith(b"\n"):
            chunk = self.sock.recv(1)
            if not chunk:
                raise ConnectionError("closed")
            data += chunk
        return data

    def ask(self, line):
        """The whole answer (bytes, ending in OK or an ACK line)."""
        self.sock.sendall(line.encode() + b"\n")
        chunks, tail = [], b""
        while True:
            data = self.sock.recv(1 << 20)
            if not data:
                raise ConnectionError("closed")
            chunks.append(data)
            tail = (tail + data)[-512:]
            if mpd_answer_complete(tail):
                return b"".join(chunks)

    def fields(self, line):
        out = {}
        for item in self.ask(line).decode(errors="replace").splitlines():
            key, _, value = item.partition(": ")
            out[key] = value
        return out

    def close(self):
        self.sock.close()


def timed_ping(port, timeout=10.0):
    """(greeting ms, ping round trip ms) of a new MPD client, or raises."""
    client = MPDLine(port, timeout=timeout)
    try:
        t0 = time.perf_counter()
        answer = client.ask("ping")
        if answer != b"OK\n":
            raise RuntimeError(f"ping: {answer[:80]!r}")
        return client.greet_ms, (time.perf_counter() - t0) * 1e3
    finally:
        client.close()


class Side:
    """One daemon under attack: `name`, `process`, `mpd_port`, and how to fill its queue,
    count its library and scan a path."""

    def ping_ok(self):
        try:
            timed_ping(self.mpd_port, timeout=3)
            return True
        except (OSError, RuntimeError):
            return False

    def terminate(self, timeout=120):
        """SIGTERM; (seconds until exit, exit status or None if it had to be killed)."""
        t0 = time.perf_counter()
        self.process.send_signal(signal.SIGTERM)
        try:
            status = self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            status = None
        return time.perf_counter() - t0, status

    def stop(self):
        if self.process is not None and self.process.poll() is None:
            self.terminate(timeout=60)


class QPlaySide(Side):
    name = "qplayd"

    def __init__(self, ctx, label, config=""):
        self.dir = os.path.join(ctx.work, f"qplay-{label}")
        if os.path.exists(self.dir):
            shutil.rmtree(self.dir)
        self.music = ctx.music_copy(label)
        self.mpd_port = free_tcp_port()
        self.sock_path = os.path.join(self.dir, "run", "qplay.sock")
        data = os.path.join(self.dir, "data")
        os.makedirs(data)
        conf = os.path.join(self.dir, "config.toml")
        with open(conf, "w") as f:
            f.write('log_level = "warning"\nscan_on_start = false\nwatch = false\nmpris = false\n'
                    "max_queue_length = 300000\n" + config)
        self.process = subprocess.Popen(
            [ctx.bins["qplayd"], "--config", conf, "--music", self.music, "--socket", self.sock_path,
             "--data-dir", data, "--output", "null", "--mpd", f"127.0.0.1:{self.mpd_port}"],
            stdout=subprocess.DEVNULL, stderr=open(os.path.join(self.dir, "qplayd.log"), "a"))
        self.client = ctx.Client(self.sock_path)
        reply = self.client.request("update", wait=True)
        if not reply.get("ok"):
            raise RuntimeError(f"qplayd scan: {reply}")
        self.mpd = MPDLine(self.mpd_port, timeout=120)

    def track_ids(self):
        return [t["id"] for t in self.client.request("search", where=[])["result"]["tracks"]]

    def tracks(self):
        return len(self.track_ids())

    def fill(self, size):
        ids = self.track_ids()
        wanted = (ids * (size // len(ids) + 1))[:size]
        for start in range(0, size, 8000):
            reply = self.client.request("add", ids=wanted[start:start + 8000])
            if not reply.get("ok"):
                raise RuntimeError(f"qplayd add: {reply['error']}")
        self.client.request("pause")

    def scan_json(self, path):
        reply = self.client.request("update", path=path, wait=True)
        return reply.get("ok", False)

    def stop(self):
        for conn in (self.client, self.mpd):
            try:
                conn.close()
            except OSError:
                pass
        super().stop()


class MPDSide(Side):
    name = "MPD"

    def __init__(self, ctx, label, settings=""):
        self.dir = os.path.join(ctx.work, f"mpd-{label}")
        if os.path.exists(self.dir):
            shutil.rmtree(self.dir)
        os.makedirs(self.dir)
        self.music = ctx.music_copy(label)
        self.mpd_port = free_tcp_port()
        self.sock_path = os.path.join(self.dir, "mpd.sock")
        conf = os.path.join(self.dir, "mpd.conf")
        with open(conf, "w") as f:
            f.write(f'''music_directory "{self.music}"
db_file "{self.dir}/mpd.db"
state_file "{self.dir}/state"
log_file "{self.dir}/mpd.log"
pid_file "{self.dir}/mpd.pid"
bind_to_address "{self.sock_path}"
bind_to_address "127.0.0.1"
port "{self.mpd_port}"
auto_update "no"
zeroconf_enabled "no"
max_playlist_length "300000"
max_connections "512"
max_output_buffer_size "1048576"
{settings}
audio_output {{
    type "null"
    name "null"
}}
''')
        self.process = subprocess.Popen(["mpd", "--no-daemon", conf], stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)
        end = time.time() + 30
        while True:
            try:
                self.mpd = MPDLine(self.mpd_port, timeout=120)
                break
            except (ConnectionRefusedError, FileNotFoundError):
                if time.time() > end:
                    raise
                time.sleep(0.05)
        self.mpd.ask("update")
        wait_updated(self)

    def tracks(self):
        return int(self.mpd.fields("stats")["songs"])

    def fill(self, size):
        per_add = self.tracks()
        count = -(-size // per_add)
        for start in range(0, count, 5000):
            n = min(5000, count - start)
            answer = self.mpd.ask("\n".join(["command_list_begin", *(['add ""'] * n), "command_list_end"]))
            if b"ACK" in answer:
                raise RuntimeError(f"MPD add: {answer[-200:]!r}")

    def stop(self):
        try:
            self.mpd.close()
        except OSError:
            pass
        super().stop()


class Context:
    def __init__(self, bins, samples, work, client_class, with_mpd, options):
        self.bins, self.samples, self.work = bins, samples, work
        self.Client = client_class
        self.with_mpd = with_mpd
        self.options = options
        self.rows = []  # each section appends its rows here, so a section that fails keeps those made

    def music_copy(self, label):
        """A copy of the sample folder per daemon and section (a scan of one cannot
        change another's), with `selfloop -> .` in the symlink section's."""
        path = os.path.join(self.work, "music", label)
        if not os.path.exists(path):
            shutil.copytree(self.samples, path, symlinks=True)
            if label.startswith("loop"):
                os.symlink(".", os.path.join(path, "selfloop"))
        return path

    def sides(self, label, qplay_config="", mpd_settings=""):
        """Yields a started qplayd, then a started MPD (if run), each stopped afterwards."""
        makers = [lambda: QPlaySide(self, f"{label}-q", qplay_config)]
        if self.with_mpd:
            makers.append(lambda: MPDSide(self, f"{label}-m", mpd_settings))
        for make in makers:
            side = make()
            try:
                yield side
            finally:
                side.stop()


# --- 1. the backtracking regular expression ---------------------------------------

class Attacker(threading.Thread):
    """Sends LINE over MPD again and again, each once the last is answered, until
    stopped or the daemon goes; `first_ms` is the first answer's time, `answers` the
    count, `first` the first answer's last line."""

    def __init__(self, port, line):
        super().__init__(daemon=True)
        self.port, self.line = port, line
        self.running, self.answers, self.first_ms, self.first = True, 0, None, None
        self.conn = MPDLine(port, timeout=600)

    def run(self):
        try:
            while self.running:
                t0 = time.perf_counter()
                answer = self.conn.ask(self.line)
                if self.first_ms is None:
                    self.first_ms = (time.perf_counter() - t0) * 1e3
                    self.first = answer.strip().splitlines()[-1].decode(errors="replace")[:70]
                self.answers += 1
        except (OSError, ConnectionError):
            pass

    def stop(self):
        self.running = False
        try:
            self.conn.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.conn.close()


def regex_section(ctx):
    rows = ctx.rows
    tries = ctx.options.sigterm_tries
    for side in ctx.sides("regex"):
        log(f"{side.name}: the backtracking regex...")
        attacker = Attacker(side.mpd_port, REGEX_QUERY)
        attacker.start()
        time.sleep(0.2)
        greets, pings, failures = [], [], 0
        for _ in range(20):
            try:
                g, p = timed_ping(side.mpd_port, timeout=10)
                greets.append(g)
                pings.append(p)
            except (OSError, RuntimeError):
                failures += 1
            time.sleep(0.05)
        time.sleep(1)
        endings = [side.terminate(timeout=30)]
        attacker.stop()
        first = f"{attacker.first_ms:.0f} ms, `{attacker.first}`" if attacker.first_ms is not None else "no answer"
        rows.append((f"regex attack, {side.name}: first answer to the query", first,
                     f"{attacker.answers} answered while measured"))
        figure = (f"{max(greets):.1f} / {max(pings):.1f}" if greets else "none greeted")
        rows.append((f"  {side.name}: another client's greeting / ping, worst of 20 (ms)", figure,
                     f"{failures} of 20 not served in 10 s" if failures else "target < 100"))
        # A shutdown that races the attack's commands may go wrong only sometimes: more
        # tries, each a fresh daemon with the attack running for 2 s before SIGTERM.
        for attempt in range(1, tries):
            again = type(side)(ctx, f"regex-{side.name}-{attempt}")
            attacker = Attacker(again.mpd_port, REGEX_QUERY)
            attacker.start()
            time.sleep(2)
            endings.append(again.terminate(timeout=30))
            attacker.stop()
        exited = [seconds for seconds, status in endings if status == 0]
        other = [status for seconds, status in endings if status not in (0, None)]
        hung = sum(1 for seconds, status in endings if status is None)
        figure = f"{len(exited)} of {len(endings)} exit 0" + (f", slowest {max(exited):.2f} s" if exited else "")
        note = f"{hung} still up 30 s after SIGTERM (killed)" if hung else "target < 2 s, exit 0"
        if other:
            note += f"; other statuses {other}"
        rows.append((f"  {side.name}: SIGTERM meanwhile, {len(endings)} tries", figure, note))
    return rows


# --- 2. and 3. unread answers to long listings --------------------------------------

def unread_peak(side, requests, seconds):
    """Baseline after one `playlistinfo` read whole, then each of REQUESTS (bytes) sent
    on a connection of its own that never reads; (baseline MB, peak growth MB,
    connections the daemon closed, a new client's ping ok)."""
    full = len(side.mpd.ask("playlistinfo"))
    time.sleep(1)
    before = rss_mb(side.process.pid)
    sampler = RSSPeak(side.process.pid)
    conns = []
    for request in requests:
        sock = socket.create_connection(("127.0.0.1", side.mpd_port))
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 65536)
        sock.sendall(request)
        conns.append(sock)
    time.sleep(seconds)
    peak = sampler.stop()
    closed = sum(1 for sock in conns if peer_closed(sock))
    served = side.ping_ok()
    for sock in conns:
        sock.close()
    return full, before, peak - before, closed, served


def peer_closed(sock):
    """Whether the other end closed SOCK (its unread bytes are skipped)."""
    sock.setblocking(False)
    try:
        while True:
            data = sock.recv(1 << 20)
            if not data:
                return True
    except BlockingIOError:
        return False
    except OSError:
        return True


def command_list_section(ctx):
    size, count = ctx.options.list_queue, 40
    rows = ctx.rows
    request = ("command_list_begin\n" + "playlistinfo\n" * count + "command_list_end\n").encode()
    for side in ctx.sides("list"):
        log(f"{side.name}: a {size:,}-entry queue, {count} playlistinfo in a list never read...")
        side.fill(size)
        full, before, growth, closed, served = unread_peak(side, [request], ctx.options.list_seconds)
        rows.append((f"command list of {count} playlistinfo, {size:,} entries, unread: {side.name} RSS growth (MB)",
                     f"{growth:+.1f}",
                     f"over {before:.0f} MB; one listing {full / 1e6:.1f} MB; "
                     f"{'closed by the daemon' if closed else 'still open'} after {ctx.options.list_seconds} s; "
                     f"others {'served' if served else 'NOT served'}" + ("; target < +64" if side.name == "qplayd" else "")))
    return rows


def many_unread_section(ctx):
    size, count = ctx.options.many_queue, 100
    rows = ctx.rows
    for side in ctx.sides("many"):
        log(f"{side.name}: {count} connections each with an unread playlistinfo of {size:,} entries...")
        side.fill(size)
        full, before, growth, closed, served = unread_peak(side, [b"playlistinfo\n"] * count,
                                                           ctx.options.list_seconds)
        rows.append((f"{count} unread playlistinfo of {size:,} entries: {side.name} RSS growth (MB)",
                     f"{growth:+.1f}",
                     f"over {before:.0f} MB; one listing {full / 1e6:.1f} MB; {closed} of {count} closed by the "
                     f"daemon; others {'served' if served else 'NOT served'}"))
    return rows


# --- 4. silent connections ----------------------------------------------------------

def silent_run(side, count, wait):
    """COUNT TCP connections that send nothing; (closed within 1 s — refused at the cap,
    a new client served while they are held, closed after WAIT s, new client served then)."""
    conns = []
    for _ in range(count):
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        try:
            sock.connect(("127.0.0.1", side.mpd_port))
            conns.append(sock)
        except OSError:
            sock.close()
    opened = time.time()
    time.sleep(1)
    early = sum(1 for sock in conns if peer_closed(sock))
    during = describe_ping(side.mpd_port)
    time.sleep(max(0.0, opened + wait - time.time()))
    closed = sum(1 for sock in conns if peer_closed(sock))
    after = describe_ping(side.mpd_port)
    for sock in conns:
        sock.close()
    return len(conns), early, during, closed, after


def describe_ping(port):
    try:
        greet, ping = timed_ping(port, timeout=5)
        return f"greeted {greet:.1f} ms, ping {ping:.1f} ms"
    except RuntimeError as error:
        return str(error)
    except (OSError, ConnectionError) as error:
        return f"not served ({type(error).__name__})"


def silent_section(ctx):
    count, wait = 520, 12
    rows = ctx.rows
    for side in ctx.sides("silent", qplay_config="connection_timeout = 10\n",
                          mpd_settings='connection_timeout "10"'):
        log(f"{side.name}: {count} silent connections, {wait} s...")
        opened, early, during, closed, after = silent_run(side, count, wait)
        rows.append((f"{count} silent TCP connections (timeout 10 s): {side.name}, a new client after {wait} s",
                     after, f"at 1 s: {during}"))
        rows.append((f"  {side.name}: of the {opened} connected, closed at 1 s / after {wait} s",
                     f"{early} / {closed}", "cap 512 both (MPD's max_connections raised to it)"))
    if ctx.options.no_password_row:
        return rows
    side = QPlaySide(ctx, "silent-pw", 'mpd_password = "bench-secret"\n')
    try:
        log(f"qplayd with mpd_password: {count} silent connections, {wait} s...")
        opened, early, during, closed, after = silent_run(side, count, wait)
        rows.append((f"{count} silent connections, mpd_password set, timeout 60 s: qplayd after {wait} s",
                     after, f"at 1 s: {during}"))
        rows.append((f"  qplayd: of the {opened} connected, closed at 1 s / after {wait} s", f"{early} / {closed}",
                     "unauthenticated ones go within 10 s"))
    finally:
        side.stop()
    return rows


# --- 5. a slow but steady reader ------------------------------------------------------

def json_connection(path, rcvbuf=None):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    if rcvbuf:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.connect(path)
    greeting = b""
    while not greeting.endswith(b"\n"):
        greeting += sock.recv(1)
    return sock


def json_queue_size(path):
    """The bytes of the JSON `queue` answer, read as fast as it comes."""
    sock = json_connection(path)
    sock.sendall(b'{"id":1,"cmd":"queue"}\n')
    size, tail = 0, b""
    while not tail.endswith(b"\n"):
        data = sock.recv(1 << 20)
        if not data:
            raise ConnectionError("closed")
        size += len(data)
        tail = data[-1:]
    sock.close()
    return size


def paced_read(sock, rate, done, limit):
    """Reads SOCK at RATE bytes/s until DONE(tail) or the peer closes or LIMIT s;
    (bytes, seconds, how it ended)."""
    received, tail, t0 = 0, b"", time.perf_counter()
    sock.settimeout(5)
    while True:
        elapsed = time.perf_counter() - t0
        if elapsed > limit:
            return received, elapsed, "gave up"
        allowed = int(rate * elapsed) - received
        if allowed <= 0:
            time.sleep(0.02)
            continue
        try:
            data = sock.recv(min(allowed, 65536))
        except socket.timeout:
            continue
        except OSError:
            return received, time.perf_counter() - t0, "reset"
        if not data:
            return received, time.perf_counter() - t0, "closed"
        received += len(data)
        tail = (tail + data)[-512:]
        if done(tail):
            return received, time.perf_counter() - t0, "whole"


def slow_reader_section(ctx):
    size, rate = ctx.options.slow_queue, ctx.options.slow_rate * 1e6
    rows = ctx.rows
    for side in ctx.sides("slow"):
        side.fill(size)
        targets = []
        if side.name == "qplayd":
            targets.append(("JSON queue", json_queue_size(side.sock_path), "json"))
        total = len(side.mpd.ask("playlistinfo"))
        targets.append(("MPD playlistinfo", total, "mpd"))
        for what, total, kind in targets:
            log(f"{side.name}: {what} of {total / 1e6:.1f} MB read at {ctx.options.slow_rate} MB/s...")
            limit = total / rate * 1.5 + 30
            if kind == "json":
                sock = json_connection(side.sock_path, rcvbuf=65536)
                sock.sendall(b'{"id":1,"cmd":"queue"}\n')
                got, seconds, end = paced_read(sock, rate, lambda t: t.endswith(b"\n"), limit)
            else:
                conn = MPDLine(side.mpd_port, rcvbuf=65536)
                sock = conn.sock
                sock.sendall(b"playlistinfo\n")
                got, seconds, end = paced_read(sock, rate, mpd_answer_complete, limit)
            sock.close()
            rows.append((f"{what} read at {ctx.options.slow_rate:g} MB/s: {side.name}, MB received / total",
                         f"{got / 1e6:.1f} / {total / 1e6:.1f}", f"{end} after {seconds:.0f} s; {size:,} entries"))
    return rows


# --- 6. a symlink loop -----------------------------------------------------------------

def symlink_loop_section(ctx):
    calls = 30
    rows = ctx.rows
    for side in ctx.sides("loop"):
        before = side.tracks()
        ways = [("MPD update", "mpd")]
        if side.name == "qplayd":
            ways.insert(0, ("JSON update", "json"))
        for way, kind in ways:
            log(f"{side.name}: {calls} × {way} through selfloop...")
            refused = 0
            for i in range(calls):
                path = "/".join(["selfloop"] * (i + 1))
                if kind == "json":
                    ok = side.scan_json(path)
                else:
                    answer = side.mpd.ask(f'update "{path}"')
                    ok = not answer.startswith(b"ACK")
                    wait_updated(side)
                refused += 0 if ok else 1
            after = side.tracks()
            rows.append((f"{calls} × {way} of selfloop/…/selfloop: {side.name} tracks before → after",
                         f"{before} → {after}", f"{refused} of {calls} refused"))
            before = after
    return rows


def wait_updated(side):
    end = time.time() + 60
    while time.time() < end:
        if "updating_db" not in side.mpd.fields("status"):
            return
        time.sleep(0.02)


# --- 7. signals -------------------------------------------------------------------------

def signals_section(ctx):
    rows = ctx.rows
    for name in ("SIGHUP", "SIGUSR1", "SIGUSR2"):
        for side in ctx.sides(f"sig-{name.lower()}"):
            log(f"{side.name}: {name}...")
            side.process.send_signal(getattr(signal, name))
            time.sleep(1)
            alive = side.process.poll() is None
            serving = alive and side.ping_ok()
            if alive:
                seconds, status = side.terminate(timeout=60)
                tail = f"SIGTERM after it: exit {status} in {seconds:.2f} s"
            else:
                code = side.process.returncode
                tail = f"killed by {signal.Signals(-code).name}" if code < 0 else f"exit status {code}"
            rows.append((f"{name} to {side.name}: still serving?",
                         "yes" if serving else ("alive, not answering" if alive else "no, it died"), tail))
    return rows


SECTIONS = {
    "regex": regex_section,
    "command-list": command_list_section,
    "many-unread": many_unread_section,
    "silent": silent_section,
    "slow-reader": slow_reader_section,
    "symlink-loop": symlink_loop_section,
    "signals": signals_section,
}
