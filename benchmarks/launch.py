"""Run one command to its end and print its wall time, its own peak memory and its exit status.

    python -I -S benchmarks/launch.py COMMAND [ARG...]   ->   "SECONDS PEAK_BYTES STATUS"

Why a process of its own: on Linux a child is credited with the peak memory of the process it
was forked from (exec keeps the larger of the two), so a command started straight from the
benchmark, which holds hundreds of megabytes by the time it builds a 100x site, would report at
least that. Forked from this small process instead, the command's peak is its own. The command's
output is dropped; the time is taken here, so this process's own start-up is not in it.
"""
import os
import sys
import time


def main(command: list[str]) -> None:
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        devnull = os.open(os.devnull, os.O_RDWR)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        try:
            os.execvp(command[0], command)
        finally:
            os._exit(127)
    _, status, usage = os.wait4(pid, 0)
    seconds = time.perf_counter() - start
    print(seconds, usage.ru_maxrss * 1024, os.waitstatus_to_exitcode(status))


if __name__ == "__main__":
    main(sys.argv[1:])
