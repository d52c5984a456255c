"""Ctrl-C reaches inside one slow puzzle: a call raises ``KeyboardInterrupt`` within about a second of SIGINT
however long one puzzle takes (a nested-chain rating of seconds, an invariant loop of a million equivalents),
as the CLI stops within half a second."""

import signal
import subprocess
import sys
import time

import pytest

from common import ROOT

# The slowest rating of the rater's serate fixtures (ER 11.8, nested forcing chains): seconds for one puzzle.
NESTED = "54...8...3.......8..8.9.....1.2..7......6..1...59....4..4..9..3....1..2..5.7..6.."
HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"

CHILD = """
import sys
import batchdoku
name, nested, hard = sys.argv[1:4]
calls = {
    # Two slow puzzles on two threads, and one on one thread: no worker ever reaches the next puzzle.
    "rate": lambda: batchdoku.rate([nested] * 2, threads=2),
    "rate-one-thread": lambda: batchdoku.rate([nested], threads=1),
    # The invariant loop: a million random equivalents of each puzzle, tens of seconds per puzzle.
    "rate-invariant": lambda: batchdoku.rate([hard] * 2, invariant=1_000_000, threads=2),
}
print("start", flush=True)
try:
    calls[name]()
except KeyboardInterrupt:
    print("interrupted", flush=True)
    sys.exit(0)
print("finished", flush=True)
sys.exit(3)
"""

# Generous for a loaded CI machine; the stop itself takes well under 0.2 s (the calling thread looks for signals
# every 100 ms, and the workers see the flag within milliseconds).
BOUND = 3.0


def interrupt_after(name, wait=1.0):
    """Starts `name` in a child Python, sends SIGINT `wait` seconds into the call, and returns the child's output
    and the seconds from the signal to the child's exit."""
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, name, NESTED, HARD],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    try:
        assert child.stdout.readline().strip() == "start"
        time.sleep(wait)
        assert child.poll() is None, child.communicate()
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=120)
        took = time.monotonic() - sent
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate()
    return out, err, child.returncode, took


# score(count=True) and solve(count_limit=huge) on a near-empty grid are not here: the core's search loop has no
# stop yet (a known gap, see TESTING.md), so one such puzzle still runs to its end.
@pytest.mark.parametrize("name", ["rate", "rate-one-thread", "rate-invariant"])
def test_ctrl_c_reaches_inside_one_slow_puzzle(name):
    out, err, code, took = interrupt_after(name)
    assert out.strip() == "interrupted", (out, err)
    assert code == 0, err
    assert took < BOUND, f"{name}: KeyboardInterrupt {took:.2f} s after SIGINT"
