"""A throwaway PostgreSQL server for tests and ``python -m bot bench --db postgres``.

``initdb`` makes a cluster in a temporary folder and ``pg_ctl`` starts it on a free loopback
port; ``stop()`` removes it all. PostgreSQL refuses to run as root, so under root the server
runs as the ``postgres`` user that Debian's package creates.
"""
from __future__ import annotations

import glob
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

USER = "tabletop"
TEMPLATE = "tabletop_template"


class Unavailable(RuntimeError):
    """PostgreSQL's server programs are not installed here (or cannot run)."""


def bindir() -> Path:
    """Where initdb and pg_ctl are: $PG_BINDIR, pg_config's answer, Debian's folder, or PATH."""
    candidates: list[str] = []
    if os.environ.get("PG_BINDIR"):
        candidates.append(os.environ["PG_BINDIR"])
    if shutil.which("pg_config"):
        try:
            candidates.append(subprocess.run(["pg_config", "--bindir"], capture_output=True,
                                             text=True, check=True).stdout.strip())
        except (OSError, subprocess.CalledProcessError):
            pass
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)
    if shutil.which("initdb"):
        candidates.append(str(Path(shutil.which("initdb")).resolve().parent))  # type: ignore[arg-type]
    for folder in candidates:
        if (Path(folder) / "initdb").exists() and (Path(folder) / "pg_ctl").exists():
            return Path(folder)
    raise Unavailable("PostgreSQL's server programs (initdb, pg_ctl) were not found: install "
                      "PostgreSQL 15 (Debian: apt install postgresql) or set PG_BINDIR")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


#: a memory-backed folder (tmpfs) on Linux, and the free room a server needs there: its own
#: files and a few test databases of about 8 MB, with a wide margin
RAM_FOLDER = "/dev/shm"
RAM_ROOM = 1 << 30
PREFIX = "tabletop-pg-"
#: the file in a server's folder that names the process that started it
OWNER = "owner.pid"
#: a folder with no server this long after it was made was left by a killed run
ABANDONED_AFTER = 3600.0


def memory_folder() -> str | None:
    """The memory-backed folder when it exists, is writable and has ``RAM_ROOM`` free."""
    try:
        memory = os.statvfs(RAM_FOLDER)
    except OSError:
        return None
    room = memory.f_bavail * memory.f_frsize
    return RAM_FOLDER if room >= RAM_ROOM and os.access(RAM_FOLDER, os.W_OK) else None


def _pid_in(path: str) -> int | None:
    try:
        with open(path) as f:
            return int(f.readline())
    except (OSError, ValueError):
        return None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # another user's process
    try:  # an ended process that nobody has reaped yet (Linux) is no server
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rpartition(")")[2].split()[0] != "Z"
    except (OSError, IndexError):
        return True


def remove_abandoned(parent: str, *, older_than: float = ABANDONED_AFTER) -> list[str]:
    """Remove the folders that killed runs left in ``parent`` (in memory they hold the
    machine's memory until it restarts), and stop their servers: PostgreSQL does not end
    with the process that started it. A folder whose owner (the process that started its
    server) still runs is kept; so is a running server with no owner recorded, and a folder
    younger than ``older_than`` seconds that has neither (it may be starting right now)."""
    removed = []
    for folder in glob.glob(os.path.join(parent, PREFIX + "*")):
        owner = _pid_in(os.path.join(folder, OWNER))
        server = _pid_in(os.path.join(folder, "data", "postmaster.pid"))
        if owner is not None and _alive(owner):
            continue
        if server is not None and _alive(server):
            if owner is None:
                continue
            try:
                os.kill(server, signal.SIGQUIT)  # PostgreSQL's immediate shutdown
            except OSError:
                continue  # another user's server: theirs to stop
            for _ in range(100):
                if not _alive(server):
                    break
                time.sleep(0.05)
        elif owner is None and server is None:
            try:
                if time.time() - os.stat(folder).st_mtime < older_than:
                    continue
            except OSError:
                continue
        shutil.rmtree(folder, ignore_errors=True)
        removed.append(folder)
    return removed


class TempPostgres:
    def __init__(self, *, durable: bool = False) -> None:
        #: fsync on (a fair comparison with SQLite's synchronous=FULL) or off (tests)
        self.durable = durable
        self.bin = bindir()
        self.folder: Path | None = None
        self.port = 0
        self._as: list[str] = []
        self._databases = 0

    def _parent(self) -> str | None:
        """Where a throwaway server keeps its files: in memory where the machine has room
        there. A test database is created and dropped per test, and on ext4 making a few
        hundred files right after removing a few hundred costs the kernel a scan of its
        recently freed inodes, about 0.25 s of CPU per database (measured with perf)."""
        if self.durable:
            return None  # the bench's server: files on disk, as a real one's
        return memory_folder()

    @property
    def admin_url(self) -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/postgres"

    def url(self, database: str) -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database}"

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        return subprocess.run([*self._as, *args], capture_output=True, text=True, check=check,
                              timeout=120)

    def start(self) -> "TempPostgres":
        if not self.durable and os.access(RAM_FOLDER, os.W_OK):
            remove_abandoned(RAM_FOLDER)  # before the room there is measured
        self.folder = Path(tempfile.mkdtemp(prefix=PREFIX, dir=self._parent()))
        (self.folder / OWNER).write_text(f"{os.getpid()}\n")
        data = self.folder / "data"
        if os.geteuid() == 0:
            runuser = shutil.which("runuser")
            if runuser is None:
                raise Unavailable("running as root without runuser: PostgreSQL cannot start")
            try:
                shutil.chown(self.folder, "postgres", "postgres")
            except (LookupError, OSError) as exc:
                raise Unavailable(f"running as root and no postgres user to run the server "
                                  f"as ({exc})") from None
            self._as = [runuser, "-u", "postgres", "--"]
        try:
            done = self._run(str(self.bin / "initdb"), "-D", str(data), "-U", USER,
                             "--auth=trust", "--encoding=UTF8", "--no-instructions", check=False)
        except OSError as exc:
            raise Unavailable(f"initdb could not run: {exc}") from None
        if done.returncode != 0:
            raise Unavailable(f"initdb failed: {done.stderr.strip()[-400:]}")
        settings = ["-c", "listen_addresses=127.0.0.1", "-c", f"unix_socket_directories={data}",
                    "-c", "max_connections=200", "-c", "shared_buffers=64MB"]
        if not self.durable:
            settings += ["-c", "fsync=off", "-c", "synchronous_commit=off",
                         "-c", "full_page_writes=off"]
        for _ in range(5):  # another process may take the free port before the server does
            self.port = _free_port()
            done = self._run(str(self.bin / "pg_ctl"), "-D", str(data), "-w", "-t", "60",
                             "-l", str(data / "server.log"), "-o",
                             " ".join([f"-p {self.port}", *settings]), "start", check=False)
            if done.returncode == 0:
                break
        else:
            raise Unavailable(f"the PostgreSQL server did not start: {done.stderr.strip()[-400:]}")
        return self

    def psql(self, sql: str, database: str = "postgres") -> str:
        return self._run(str(self.bin / "psql"), "-X", "-q", "-v", "ON_ERROR_STOP=1",
                         "-h", "127.0.0.1", "-p", str(self.port), "-U", USER, "-d", database,
                         "-At", "-c", sql).stdout

    def new_database(self, template: str | None = None) -> str:
        """A fresh, empty (or copied from ``template``) database; returns its URL."""
        self._databases += 1
        name = f"t{os.getpid()}_{self._databases}"
        self.psql(f"CREATE DATABASE {name}" + (f" TEMPLATE {template}" if template else ""))
        return self.url(name)

    def drop_database(self, url: str) -> None:
        name = url.rsplit("/", 1)[-1]
        self.psql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def stop(self) -> None:
        if self.folder is None:
            return
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.folder / "data"), "-m", "immediate",
                  "-w", "stop", check=False)
        shutil.rmtree(self.folder, ignore_errors=True)
        self.folder = None

    def __enter__(self) -> "TempPostgres":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
