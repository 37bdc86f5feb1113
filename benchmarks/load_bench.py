"""The demo under load: concurrent API clients against ``app.py`` on this machine.

    python benchmarks/load_bench.py [--clients 20] [--seconds 60] [--model PATH]
        [--concurrency 1] [--queue-size 32] [--check-limits] [--seed 0]

Starts ``app.py`` (the bundled default model unless ``--model``; ``--concurrency`` and
``--queue-size`` are passed on, defaults as in ``app.py``) in a subprocess on a free
localhost port, waits until it serves and sends one warm-up request. Then ``--clients``
threads, each with a ``gradio_client.Client`` of its own, call ``/anonymize`` one request
after another for ``--seconds`` seconds (a request under way at the end is finished and
counted). Each request is a German decision of varied length: the fictional examples of
``app.py`` and ``examples/decision.txt`` (about 1,000 characters), synthetic decisions
(:mod:`hf_anon.corpora.synthetic`, 300-4,000) and some of them joined to about 10,000
and 25,000 characters, in a random mode; the downloads the endpoint offers are not
fetched. Prints the latency of a request as a client sees it (queue wait included: p50,
p95, max), requests and characters per second and the errors, by kind.

``--check-limits`` then checks the refusals: a text just over ``app.MAX_CHARS`` and one
of 10 MB (each must be refused with an error that names the limit), and a burst of
``queue size + concurrency + 4`` requests of about 10,000 characters at once (the ones
over must get Gradio's "queue is full" at once, the others an answer). With a small
``--queue-size`` (say 4) the burst is short.

Exit code 0 when no request of the load failed (and, with ``--check-limits``, every
refusal came as it should), 1 otherwise. Needs nothing but the repository: the server
and the clients run on this machine, so they share its CPU (the clients need little).
"""

from __future__ import annotations

import argparse
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import app  # noqa: E402  (its limits and examples; imports gradio)


@dataclass
class Outcome:
    """One request: when it ended, how long it took, its size, its error (None: ok)."""

    ended: float
    seconds: float
    chars: int
    error: str | None = None


@dataclass
class Load:
    outcomes: list[Outcome] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, outcome: Outcome) -> None:
        with self.lock:
            self.outcomes.append(outcome)


# ---------------------------------------------------------------------------- the texts


def decision_texts(seed: int = 0) -> list[tuple[float, str]]:
    """(weight, text): what one request sends, mostly short and medium decisions."""
    from hf_anon.corpora.synthetic import generate_document

    short = [*app.EXAMPLES.values(), (ROOT / "examples" / "decision.txt").read_text("utf-8")]
    synthetic = [generate_document(index, seed).text for index in range(1, 41)]

    def joined(chars: int, start: int) -> str:
        parts: list[str] = []
        while sum(len(p) + 2 for p in parts) < chars:
            parts.append(synthetic[(start + len(parts)) % len(synthetic)])
        return "\n\n".join(parts)

    long = [joined(10_000, start) for start in range(0, 40, 8)]
    very_long = [joined(25_000, start) for start in (0, 20)]
    pool: list[tuple[float, str]] = []
    for weight, texts in ((0.35, short), (0.45, synthetic), (0.15, long), (0.05, very_long)):
        pool += [(weight / len(texts), text) for text in texts]
    return pool


def describe(pool: list[tuple[float, str]]) -> str:
    lengths = [len(text) for _, text in pool]
    mean = sum(weight * len(text) for weight, text in pool)
    return (
        f"{len(pool)} texts of {min(lengths):,}-{max(lengths):,} characters, "
        f"{mean:,.0f} per request on average"
    )


# --------------------------------------------------------------------------- the server


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(args: argparse.Namespace, log: Path) -> tuple[subprocess.Popen, str]:
    """``app.py`` in a subprocess; its URL once it answers (the model is loaded then)."""
    import httpx

    port = free_port()
    command = [sys.executable, str(ROOT / "app.py"), "--port", str(port)]
    command += ["--concurrency", str(args.concurrency), "--queue-size", str(args.queue_size)]
    if args.model:
        command += ["--model", args.model]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    with log.open("wb") as out:
        server = subprocess.Popen(command, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, env=env)
    url = f"http://127.0.0.1:{port}/"
    deadline = time.monotonic() + args.start_timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            break
        try:
            if httpx.get(f"{url}gradio_api/info", timeout=5).status_code == 200:
                return server, url
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    stop_server(server)
    tail = log.read_text("utf-8", errors="replace")[-3000:]
    raise SystemExit(f"the demo did not start (exit code {server.returncode}):\n{tail}")


def stop_server(server: subprocess.Popen) -> None:
    if server.poll() is None:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


# -------------------------------------------------------------------------- the clients


def client(url: str):
    from gradio_client import Client

    return Client(url, verbose=False, download_files=False)


def label_names(url: str) -> list[str]:
    """The labels the served model replaces (the check boxes' default: all)."""
    api = client(url).view_api(print_info=False, return_format="dict")
    parameters = api["named_endpoints"]["/anonymize"]["parameters"]
    return list(parameters[2]["parameter_default"])


def error_kind(err: BaseException) -> str:
    message = " ".join(str(err).split())
    return f"{type(err).__name__}: {message[:160]}"


def call(anonymizer_client, text: str, mode: str, labels: list[str]) -> str | None:
    """One ``/anonymize`` request; None when it succeeded, else what went wrong."""
    try:
        anonymized, spans, *_ = anonymizer_client.predict(
            text, mode, labels, "low", api_name="/anonymize"
        )
    except Exception as err:  # what a user would see: report it, go on
        return error_kind(err)
    if not isinstance(anonymized, str) or not anonymized or not isinstance(spans, list):
        return f"bad response: {type(anonymized).__name__}, {type(spans).__name__}"
    return None


def run_load(url: str, args: argparse.Namespace, pool, labels: list[str]) -> tuple[Load, float]:
    """``args.clients`` clients for ``args.seconds`` seconds; the outcomes and the time
    from the start to the last answer."""
    load = Load()
    modes = [value for _, value in app.MODES]
    start: list[float] = []
    # all clients connect first; the last one to arrive starts the clock
    ready = threading.Barrier(args.clients, action=lambda: start.append(time.perf_counter()))

    def work(number: int) -> None:
        rng = random.Random(args.seed * 1000 + number)
        try:
            own = client(url)
        except Exception as err:
            own = None
            load.add(Outcome(time.perf_counter(), 0.0, 0, f"no connection: {error_kind(err)}"))
        ready.wait()
        deadline = start[0] + args.seconds
        while own is not None and time.perf_counter() < deadline:
            text = rng.choices([t for _, t in pool], weights=[w for w, _ in pool])[0]
            began = time.perf_counter()
            error = call(own, text, rng.choice(modes), labels)
            ended = time.perf_counter()
            load.add(Outcome(ended, ended - began, len(text), error))

    threads = [threading.Thread(target=work, args=(n,), daemon=True) for n in range(args.clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if not start:
        raise SystemExit("the clients did not start")
    ended = max((o.ended for o in load.outcomes), default=start[0])
    return load, ended - start[0]


def percentile(values: list[float], q: float) -> float:
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[round(q) - 1]


def report_load(load: Load, wall: float) -> int:
    ok = [o for o in load.outcomes if o.error is None]
    errors = Counter(o.error for o in load.outcomes if o.error is not None)
    print(
        f"requests: {len(ok)} answered, {sum(errors.values())} errors in {wall:.1f} s: "
        f"{len(ok) / wall:.2f} requests/s, {sum(o.chars for o in ok) / wall:,.0f} characters/s"
    )
    if ok:
        latency = sorted(o.seconds for o in ok)
        print(
            f"latency (s, queue wait included): p50 {percentile(latency, 50):.2f}  "
            f"p95 {percentile(latency, 95):.2f}  max {latency[-1]:.2f}  "
            f"min {latency[0]:.2f}"
        )
    for kind, count in errors.most_common():
        print(f"  error x{count}: {kind}")
    return sum(errors.values())


# ---------------------------------------------------------------------- the refusals


def check_limits(url: str, args: argparse.Namespace, labels: list[str], pool) -> bool:
    """An oversized text and an over-full queue are refused at once, with clear errors."""
    from gradio_client.exceptions import AppError
    from gradio_client.utils import QueueError

    passed = True
    sentence = "Der Kläger Hans Müller wohnt in Köln. "
    for chars in (app.MAX_CHARS + len(sentence), 10_000_000):  # just over, and 10 MB
        oversized = sentence * (chars // len(sentence))
        began = time.perf_counter()
        error = None
        try:
            client(url).predict(oversized, "label", labels, "low", api_name="/anonymize")
        except AppError as err:
            error = err
        took = time.perf_counter() - began
        message = " ".join(str(error).split()) if error else "no error: it was anonymized"
        print(f"oversized text ({len(oversized):,} characters): {took:.2f} s: {message}")
        if error is None or f"at most {app.MAX_CHARS:,}" not in str(error):
            print("  FAILED: expected an error that names the limit")
            passed = False

    burst = args.queue_size + args.concurrency + 4
    # a text of about 10,000 characters, so that the queue fills faster than it empties
    text = min((t for _, t in pool), key=lambda t: abs(len(t) - 10_000))
    results: list[tuple[float, BaseException | None]] = []
    lock = threading.Lock()
    go = threading.Barrier(burst)

    def one(own) -> None:
        go.wait()
        began = time.perf_counter()
        try:
            own.predict(text, "label", labels, "low", api_name="/anonymize")
            error = None
        except Exception as err:
            error = err
        with lock:
            results.append((time.perf_counter() - began, error))

    clients = [client(url) for _ in range(burst)]  # connected before the burst
    threads = [threading.Thread(target=one, args=(c,), daemon=True) for c in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    full = [(s, e) for s, e in results if isinstance(e, QueueError)]
    other = [(s, e) for s, e in results if e is not None and not isinstance(e, QueueError)]
    answered = [s for s, e in results if e is None]
    print(
        f"burst of {burst} requests at once (queue size {args.queue_size}, concurrency "
        f"{args.concurrency}): {len(answered)} answered (last after {max(answered, default=0):.1f}"
        f" s), {len(full)} refused as queue full"
        + (f" within {max(s for s, _ in full):.2f} s: {full[0][1]}" if full else "")
    )
    for _, err in other:
        print(f"  unexpected: {error_kind(err)}")
    if not full or other or len(answered) < args.queue_size:
        print("  FAILED: expected some 'queue is full' refusals and answers for the rest")
        passed = False
    return passed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=20, help="concurrent clients (20)")
    parser.add_argument("--seconds", type=float, default=60, help="duration of the load (60)")
    parser.add_argument("--model", help="model folder or hub id (default: the bundled model)")
    parser.add_argument(
        "--concurrency", type=int, default=app.CONCURRENCY, help="the server's model runs"
    )
    parser.add_argument(
        "--queue-size", type=int, default=app.QUEUE_SIZE, help="the server's queue size"
    )
    parser.add_argument(
        "--check-limits",
        action="store_true",
        help="then send an oversized text and a burst that overfills the queue",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--start-timeout", type=float, default=300, help="seconds to wait for the server"
    )
    args = parser.parse_args(argv)
    if min(args.clients, args.concurrency, args.queue_size) < 1 or args.seconds <= 0:
        parser.error("--clients, --concurrency, --queue-size and --seconds must be positive")

    pool = decision_texts(args.seed)
    with tempfile.TemporaryDirectory(prefix="hf-anon-load-") as tmp:
        log = Path(tmp) / "server.log"
        began = time.perf_counter()
        server, url = start_server(args, log)
        try:
            print(
                f"server: app.py at {url} ({args.model or 'the bundled model'}), concurrency "
                f"{args.concurrency}, queue size {args.queue_size}, max text "
                f"{app.MAX_CHARS:,} characters; up in {time.perf_counter() - began:.1f} s"
            )
            labels = label_names(url)
            warm_up = call(client(url), pool[0][1], "label", labels)
            if warm_up is not None:
                raise SystemExit(f"the warm-up request failed: {warm_up}")
            print(
                f"load: {args.clients} clients for {args.seconds:g} s on {os.cpu_count()} "
                f"CPU cores; {describe(pool)}"
            )
            load, wall = run_load(url, args, pool, labels)
            errors = report_load(load, wall)
            limits_ok = check_limits(url, args, labels, pool) if args.check_limits else True
        finally:
            stop_server(server)
    if server.returncode not in (0, -15):
        print(f"the server ended with exit code {server.returncode}")
    return 0 if errors == 0 and limits_ok else 1


if __name__ == "__main__":
    sys.exit(main())
