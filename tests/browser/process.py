"""The local table as `make run` starts it without a token, in a subprocess."""

from __future__ import annotations

import os
import queue
import re
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TIME_SCALE = "0.015"
# At load 9 on two cores (seven agents' test runs) a table once took over 30 s to print its
# address: its imports alone; 5 s at that load a minute later.
START_SECONDS = 60
ADDRESS = re.compile(r"http://127\.0\.0\.1:(\d+)/")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class TableProcess:
    """`python -m devtools.local` without a token, on a fixed port and SQLite file."""

    def __init__(self, db: Path, port: int, time_scale: str = TIME_SCALE) -> None:
        self.db, self.port, self.time_scale = db, port, time_scale
        self.url = f"http://127.0.0.1:{port}/"
        self.log: list[str] = []
        self.proc: subprocess.Popen[str] | None = None

    def start(self) -> None:
        env = {
            **os.environ,
            "PORT": str(self.port),
            "GAME_DB_PATH": str(self.db),
            "GAME_TIME_SCALE": self.time_scale,
        }
        env.pop("TELEGRAM_BOT_TOKEN", None)
        env.pop("HOST", None)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "devtools.local"],
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        lines: queue.Queue[str] = queue.Queue()
        stream = self.proc.stderr
        assert stream is not None

        def pump() -> None:
            for line in stream:
                self.log.append(line)
                lines.put(line)

        threading.Thread(target=pump, daemon=True).start()
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            try:
                line = lines.get(timeout=0.5)
            except queue.Empty:
                if self.proc.poll() is not None:
                    break
                continue
            match = ADDRESS.search(line)
            if match:
                assert int(match.group(1)) == self.port
                return
        self.stop()  # a table that never said where it is would outlive the test
        raise AssertionError("the table did not print its address:\n" + "".join(self.log))

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
