#!/usr/bin/env python3
"""Runs scripts/test's fast phase: the test binary's top-level suites from a shared queue.

Called by scripts/test (after the build, under a display) with the test binary and the --skip
pattern of the tests that run in other phases. It lists the binary's tests (swift-testing's
`--list-tests` event stream), keeps the top-level suites (and free functions) that have a test
left after the skip, and runs them from one queue, the slowest first: `--processes` workers
(default 2, PASTE_TEST_PROCESSES), each taking the next item when its last one ended and running
it as a test process of its own (`BINARY --testing-library swift-testing --filter ITEM --skip
SKIP`). So the workers end within about one small item of each other, whatever the estimates
were, instead of one finishing its fixed share a minute before the other.

An item is the next suites in order whose expected time is a (2 x workers)th of what is left
(see `Queue`): many suites at first, single small ones at the end. The order comes from the measured times
in `suite-times` beside this file (one line per suite: wall seconds, CPU seconds, name), from a
run on the 2-core VM; a suite missing there counts as its tests times the median seconds per
test of the suites that are there. Regenerate the table after adding or changing slow suites
(each suite then runs as an item of its own, so each gets a time of its own):

    scripts/test --fast --record-times

A suite stays whole in one process (a `.sharedXvfb` suite keeps its server); what a test takes
is its own (temporary folders, OS-picked ports, Xvfb's -displayfd numbers), as it must be already
for the tests that run at once within one process. Each item's lines are prefixed with its
worker ("[fast N]"); at the end comes a line per item that took long, with its wall and CPU time
(user + system, its children's included: what wait4 reports for the test process, which waits
for every process it starts), and the phase's totals.

Exits with the first failing item's status (1 when an item's process was killed by a signal).
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TIMES = os.path.join(HERE, "suite-times")
SMALL = 2.0  # seconds: the least an item holds (a test process costs ~0.07 s of CPU to start)
REPORT_OVER = 5.0  # seconds of wall: items that took longer are listed at the end


def list_suites(binary, skip):
    """The top-level suites (and free functions) with at least one test not skipped: {name: count}."""
    with tempfile.NamedTemporaryFile(suffix=".jsonl") as stream:
        listing = subprocess.run(
            [binary, "--testing-library", "swift-testing", "--list-tests",
             "--event-stream-version", "0", "--event-stream-output-path", stream.name],
            stdout=subprocess.DEVNULL, check=False)
        counts = {}
        for line in open(stream.name, encoding="utf-8"):
            record = json.loads(line)
            test = record.get("payload", {})
            if record.get("kind") != "test" or test.get("kind") != "function":
                continue
            # A function's id ends in its source location (`/File.swift:12:5`).
            name = re.sub(r"/[^/]+\.swift:\d+:\d+$", "", test["id"])
            if skip.search(name):
                continue
            suite = name.split("/")[0]
            counts[suite] = counts.get(suite, 0) + 1
    if listing.returncode != 0 or not counts:
        sys.exit(f"test: the test binary lists no test for the fast phase (listing status {listing.returncode})")
    return counts


def read_times():
    """The measured table: {suite: (wall, cpu)}; empty when there is none."""
    times = {}
    if not os.path.exists(TIMES):
        return times
    for line in open(TIMES, encoding="utf-8"):
        if not line.strip() or line.startswith("#"):
            continue
        wall, cpu, name = line.split()
        times[name] = (float(wall), float(cpu))
    return times


def estimate(counts, times):
    """Each suite's expected wall seconds: measured, or its tests times the median per test."""
    per_test = [times[name][0] / counts[name] for name in counts if name in times]
    default = statistics.median(per_test) if per_test else 1.0
    return {name: times[name][0] if name in times else count * default for name, count in counts.items()}


class Queue:
    """The suites left, the slowest first; `take` hands out the next item.

    Guided self-scheduling: an item is the next suites in order until their expected time is a
    (2 x workers)th of what is left (at least `SMALL` seconds, at least one suite). Early items
    hold many suites, so a test process has tests enough to run at once (its thread pool runs as
    many as it has threads, and a test waiting on a child or a backoff leaves its thread to
    another); the last items are single small suites, so the workers end close together.
    """

    def __init__(self, weights, workers, one_suite_each):
        self.left = sorted(weights.items(), key=lambda item: (-item[1], item[0]))
        self.workers = workers
        self.one_suite_each = one_suite_each
        self.lock = threading.Lock()

    def take(self):
        with self.lock:
            if not self.left:
                return None
            if self.one_suite_each:
                return [self.left.pop(0)[0]]
            target = max(SMALL, sum(weight for _, weight in self.left) / (2 * self.workers))
            names, total = [], 0.0
            while self.left and (not names or total < target):
                name, weight = self.left.pop(0)
                names.append(name)
                total += weight
            return names


def pattern(names):
    return "|".join("^" + re.escape(name) + "(/|$)" for name in sorted(names))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("binary")
    parser.add_argument("skip", help="--skip pattern: the tests of the other phases")
    parser.add_argument("--processes", type=int, default=int(os.environ.get("PASTE_TEST_PROCESSES", "2")))
    parser.add_argument("--record-times", action="store_true",
                        help=f"run each suite alone and write what each took to {TIMES}")
    arguments = parser.parse_args()
    skip = re.compile(arguments.skip)
    counts = list_suites(arguments.binary, skip)
    weights = estimate(counts, read_times())
    queue = Queue(weights, arguments.processes, one_suite_each=arguments.record_times)
    lock = threading.Lock()
    results = []  # (names, wall, cpu, status)
    statuses = []
    ended = []  # each worker's end, seconds after the phase began

    def worker(index):
        while True:
            names = queue.take()
            if names is None:
                with lock:
                    ended.append(time.monotonic() - phase_start)
                return
            start = time.monotonic()
            child = subprocess.Popen(
                [arguments.binary, "--testing-library", "swift-testing",
                 "--filter", pattern(names), "--skip", arguments.skip],
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            for line in child.stdout:
                with lock:
                    sys.stdout.buffer.write(b"[fast %d] " % index + line)
                    sys.stdout.buffer.flush()
            # wait4: the process's resources and those of every child it waited for.
            _, wait_status, usage = os.wait4(child.pid, 0)
            child.returncode = 0  # reaped here; keeps Popen from waiting again
            wall = time.monotonic() - start
            status = os.waitstatus_to_exitcode(wait_status)
            status = status if status >= 0 else 1
            with lock:
                results.append((names, wall, usage.ru_utime + usage.ru_stime, status))
                if status != 0:
                    statuses.append(status)
                    sys.stdout.write(f"test: [fast {index}] failed (status {status}): {' '.join(names)}\n")

    phase_start = start = time.monotonic()
    threads = [threading.Thread(target=worker, args=(index + 1,)) for index in range(arguments.processes)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.monotonic() - start
    cpu = sum(result[2] for result in results)
    print("test: fast phase items that took longest (wall, CPU):")
    for names, item_wall, item_cpu, status in sorted(results, key=lambda result: -result[1]):
        if item_wall >= REPORT_OVER:
            label = names[0] if len(names) == 1 else f"{len(names)} suites"
            print(f"test:   {item_wall:6.1f} s {item_cpu:6.1f} s  {label}")
    print(f"test: fast phase: {len(results)} test processes over {len(counts)} suites, "
          f"{wall:.1f} s of wall, {cpu:.1f} s of CPU in test processes")
    # The queue's tail: how long a core had no test process at the end (one worker done, waiting).
    ended.sort()
    print(f"test: fast phase: workers ended at {', '.join(f'{end:.1f}' for end in ended)} s: "
          f"{ended[-1] - ended[0]:.1f} s with a worker idle at the end")
    if arguments.record_times:
        with open(TIMES, "w", encoding="utf-8") as table:
            table.write("# scripts/test --fast --record-times: wall and CPU seconds per suite, each run\n"
                        f"# alone, {arguments.processes} at once (scripts/test.d/fast-phase.py reads it)\n")
            for names, item_wall, item_cpu, _ in sorted(results, key=lambda result: result[0][0]):
                table.write(f"{item_wall:.2f} {item_cpu:.2f} {names[0]}\n")
        print(f"test: wrote {TIMES}")
    sys.exit(statuses[0] if statuses else 0)


if __name__ == "__main__":
    main()
