"""Real processes for the service tests: `incident-library serve` and Debian's nginx, each on a
free loopback port, started by the test and ended by it (by process id)."""

import os
import pwd
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import IO

from tests.conftest import free_port

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def get(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    """Status, headers (lower-case names) and body; redirects are not followed."""

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: object, **kwargs: object) -> None:
            return None

    opener = urllib.request.build_opener(NoRedirect)
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with opener.open(request, timeout=30) as response:
            return response.status, _headers(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, _headers(error.headers), error.read()


def _headers(message: object) -> dict[str, str]:
    return {k.lower(): v for k, v in message.items()}  # type: ignore[attr-defined]


def wait_for(url: str, status: int = 200, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if get(url)[0] == status:
                return
        except OSError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"no {status} from {url} within {seconds} s")


class Serve:
    """`incident-library serve` with the given options; stderr (the log) kept in a file."""

    def __init__(
        self,
        db: Path,
        *options: str,
        log: Path,
        cwd: Path | None = None,
        command: list[str] | None = None,
        env: dict[str, str] | None = None,
    ) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = log
        self._log: IO[bytes] = log.open("wb")
        argv = command or [sys.executable, "-m", "app.cli"]
        clean = {k: v for k, v in os.environ.items() if not k.startswith("IL_")}
        clean.pop("PROMETHEUS_MULTIPROC_DIR", None)
        self.process = subprocess.Popen(
            [*argv, "serve", "--db", str(db), "--port", str(self.port), *options],
            cwd=cwd,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            env={**clean, **(env or {})},
        )

    def ready(self, path: str = "/readyz") -> "Serve":
        try:
            wait_for(self.base + path)
        except RuntimeError:
            self.stop()
            raise RuntimeError(
                f"serve did not start: {self.log_path.read_text()[-2000:]}"
            ) from None
        return self

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self._log.close()


class Nginx:
    """Debian's nginx with a generated config (one `http {}` body), on loopback only."""

    def __init__(self, directory: Path, http_body: str) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        directory.mkdir(parents=True, exist_ok=True)
        self.directory = directory
        # As root the master hands requests to workers as `nobody` unless told otherwise, and
        # those could not write nginx's temporary files under the test's private directory.
        user = f"user {pwd.getpwuid(os.geteuid()).pw_name};" if os.geteuid() == 0 else ""
        temp = " ".join(
            f"{kind}_temp_path {directory / kind};"
            for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        )
        config = f"""
{user}
worker_processes 1;
pid {directory / "nginx.pid"};
error_log {directory / "error.log"} warn;
events {{ worker_connections 512; }}
http {{
  access_log off;
  {temp}
  {http_body.replace("LISTEN", f"listen 127.0.0.1:{self.port};")}
}}
"""
        (directory / "nginx.conf").write_text(config)
        self.process = subprocess.Popen(
            [NGINX, "-p", str(directory), "-c", str(directory / "nginx.conf"), "-e",
             str(directory / "error.log"), "-g", "daemon off;"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.STDOUT,
        )  # fmt: skip
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                get(self.base + "/nginx-up")
                return
            except OSError:
                if self.process.poll() is not None:
                    break
                time.sleep(0.05)
        error_log = (
            (directory / "error.log").read_text() if (directory / "error.log").exists() else ""
        )
        self.stop()
        raise RuntimeError(f"nginx did not start: {error_log}")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGQUIT)  # graceful: finish what is in flight
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
