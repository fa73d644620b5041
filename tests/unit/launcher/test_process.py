import http.server
import os
import sys
import threading

import pytest

from nova.launcher import proc
from nova.launcher.errors import LauncherError, ProcessNotReady
from nova.launcher.probes import AliveProbe, HttpProbe
from nova.launcher.process import ProcessSpec, SupervisedProcess


def _supervised(tmp_path, name="sleeper", argv=None, **kwargs) -> SupervisedProcess:
    spec = ProcessSpec(
        name=name,
        argv=tuple(argv or ("sleep", "60")),
        probe=kwargs.pop("probe", AliveProbe(0.1)),
        **kwargs,
    )
    return SupervisedProcess(spec, tmp_path / "run", tmp_path / "logs")


@pytest.fixture
def supervised(tmp_path):
    started = []

    def make(*args, **kwargs):
        process = _supervised(tmp_path, *args, **kwargs)
        started.append(process)
        return process

    yield make
    for process in started:
        process.stop(timeout=2)


def test_start_writes_pidfile_and_stop_removes_it(supervised):
    process = supervised()
    pid = process.start()
    assert process.pidfile.read_text() == f"{pid}\n"
    assert process.is_running()
    assert process.pid() == pid
    assert os.getpgid(pid) == pid  # its own session and process group
    assert process.stop()
    assert not process.pidfile.exists()
    assert not proc.is_alive(pid)
    assert not process.stop()  # nothing left to stop


def test_start_is_idempotent(supervised):
    process = supervised()
    pid = process.start()
    assert process.start() == pid


def test_a_second_supervisor_finds_the_process_by_pidfile(supervised, tmp_path):
    pid = supervised().start()
    other = _supervised(tmp_path)
    assert other.pid() == pid
    assert other.stop()
    assert proc.group_members(pid) == []


def test_stale_pidfile_of_a_dead_process_is_removed(supervised):
    process = supervised(argv=("true",))
    pid = process.start()
    process._popen.wait()
    assert process.pid() is None
    assert not process.pidfile.exists()
    assert not process.startfile.exists()
    assert pid


def test_pidfile_naming_a_reused_pid_is_stale_and_never_signalled(tmp_path):
    process = _supervised(tmp_path)
    process.pidfile.parent.mkdir(parents=True)
    # Our own pid, alive, but started at another time than recorded.
    process.pidfile.write_text(f"{os.getpid()}\n")
    process.startfile.write_text("1\n")
    assert process.pid() is None
    assert not process.stop()
    assert not process.pidfile.exists()


def test_garbage_pidfile_means_not_running(tmp_path):
    process = _supervised(tmp_path)
    process.pidfile.parent.mkdir(parents=True)
    process.pidfile.write_text("not a pid\n")
    assert not process.is_running()


def test_stop_ends_the_whole_process_group(supervised):
    process = supervised(argv=("sh", "-c", "sleep 60 & sleep 60 & wait"))
    pid = process.start()
    process.wait_ready()
    assert len(proc.group_members(pid)) == 3
    process.stop()
    assert proc.group_members(pid) == []


def test_stop_escalates_to_sigkill(supervised):
    process = supervised(
        argv=("sh", "-c", "trap '' TERM; sleep 60 & wait"),
        stop_timeout=0.5,
    )
    pid = process.start()
    process.wait_ready()
    assert process.stop()
    assert proc.group_members(pid) == []


def test_output_goes_to_the_log_file(supervised):
    process = supervised(argv=("sh", "-c", "echo hello; echo oops >&2; sleep 60"))
    process.start()
    process.wait_ready()
    process.stop()
    text = process.log_path.read_text()
    assert "hello" in text and "oops" in text


def test_dying_before_ready_reports_exit_code_and_log_tail(supervised):
    process = supervised(
        argv=("sh", "-c", "echo cannot load config; exit 7"),
        probe=AliveProbe(30),
    )
    process.start()
    with pytest.raises(ProcessNotReady) as caught:
        process.wait_ready(timeout=10)
    message = str(caught.value)
    assert "exited with code 7" in message
    assert "cannot load config" in message


def test_never_ready_times_out_with_log_tail(supervised):
    process = supervised(
        argv=("sh", "-c", "echo still booting; sleep 60"),
        probe=HttpProbe("http://127.0.0.1:9/", timeout=0.2),
    )
    process.start()
    with pytest.raises(ProcessNotReady) as caught:
        process.wait_ready(timeout=0.5)
    assert "not ready after 0.5 s" in str(caught.value)
    assert "still booting" in str(caught.value)
    assert process.is_running()  # the caller decides whether to stop it


def test_missing_config_file_is_reported_before_start(supervised, tmp_path):
    process = supervised(config_files=(tmp_path / "absent.conf",))
    with pytest.raises(LauncherError, match="absent.conf"):
        process.start()
    assert not process.pidfile.exists()


def test_children_bypass_proxies_for_loopback(supervised, monkeypatch):
    monkeypatch.setenv("no_proxy", "example.org")
    code = (
        "import os, sys, time; print('NP=' + os.environ['no_proxy']); "
        "sys.stdout.flush(); time.sleep(60)"
    )
    process = supervised(argv=(sys.executable, "-c", code))
    process.start()
    process.wait_ready()
    process.stop()
    assert "NP=example.org,127.0.0.1,localhost" in process.log_path.read_text()


@pytest.fixture
def http_server():
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(300 if self.path == "/multiple" else 503)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def test_http_probe_accepts_answers_below_500(http_server):
    assert HttpProbe(http_server + "/multiple").check(0)
    assert not HttpProbe(http_server + "/unavailable").check(0)
    assert not HttpProbe("http://127.0.0.1:9/", timeout=0.2).check(0)


def test_alive_probe_waits_for_age():
    assert not AliveProbe(3).check(2.9)
    assert AliveProbe(3).check(3.0)
