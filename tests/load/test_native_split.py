"""``loadtest/native_split.py``: a served call's CPU by shared object (kernel, gRPC's C core, the
interpreter, protobuf, the C library, crypto), read from ``perf report`` and scaled to µs a call."""
import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

LOADTEST = Path(__file__).resolve().parents[2] / "loadtest"
spec = importlib.util.spec_from_file_location("native_split", LOADTEST / "native_split.py")
native = importlib.util.module_from_spec(spec)
spec.loader.exec_module(native)

REPORT = """# To display the perf.data header info, please use --header/--header-only options.
#
# Samples: 11K of event 'cpu-clock'
#
# Overhead  Shared Object
# ........  ..........................................
#
    35.89%  [kernel.kallsyms]
    33.05%  libpython3.11.so.1.0
     5.00%  python3.11
    12.16%  cygrpc.cpython-311-x86_64-linux-gnu.so
     7.54%  libc.so.6
     4.01%  _message.abi3.so
     0.90%  _rust.abi3.so
     0.35%  libcrypto.so.3
     0.31%  [vdso]
     0.28%  hot_c.cpython-311-x86_64-linux-gnu.so
     0.25%  ld-linux-x86-64.so.2
     0.26%  _queue.cpython-311-x86_64-linux-gnu.so
"""

SYMBOLS = """# Overhead  Shared Object         Symbol
    16.23%  [kernel.kallsyms]     [k] finish_task_switch.isra.0
     9.79%  libpython3.11.so.1.0  [.] _PyEval_EvalFrameDefault
     9.78%  [kernel.kallsyms]     [k] _raw_spin_unlock_irqrestore
     1.59%  [kernel.kallsyms]     [k] irqentry_exit_to_user_mode
     0.56%  [kernel.kallsyms]     [k] do_syscall_64
"""


def test_samples_are_split_by_the_shared_object_they_fell_in():
    got = native.shares(REPORT)
    assert got == pytest.approx({"kernel": 0.3589, "interpreter": 0.3805, "gRPC core (C)": 0.1216,
                                 "C library": 0.0754 + 0.0031 + 0.0025, "protobuf (upb)": 0.0401,
                                 "crypto": 0.0090 + 0.0035, "compiled core": 0.0028, "other": 0.0026})
    assert sum(got.values()) == pytest.approx(1.0)


def test_a_report_without_samples_is_an_error_not_zeros():
    with pytest.raises(SystemExit, match="no samples"):
        native.shares("# Samples: 0 of event 'cpu-clock'\n#\n")


def test_the_kernel_symbols_are_the_kernels_only_heaviest_first():
    assert native.kernel_symbols(SYMBOLS, top=2) == [("finish_task_switch.isra.0", pytest.approx(0.1623)),
                                                     ("_raw_spin_unlock_irqrestore", pytest.approx(0.0978))]


def test_the_table_scales_shares_by_each_runs_cpu_and_subtracts_the_noop_call():
    runs = {"noop": [{"server_us_per_call": 400.0, "shares": {"kernel": 0.5, "interpreter": 0.5}},
                     {"server_us_per_call": 500.0, "shares": {"kernel": 0.6, "interpreter": 0.4}}],
            "games": [{"server_us_per_call": 600.0, "shares": {"kernel": 0.4, "interpreter": 0.5, "protobuf (upb)": 0.1}}]}
    lines, medians = native.table(runs)
    assert medians["noop"]["all"] == 450.0 and medians["noop"]["kernel"] == 250.0  # median of 200 and 300
    assert medians["games"] == {**{part: 0.0 for part in medians["games"]}, "all": 600.0, "kernel": 240.0,
                                "interpreter": 300.0, "protobuf (upb)": 60.0}
    over = lines[lines.index("over the no-op call:") + 1:]
    assert [line.split()[-1] for line in over if line.startswith(("kernel", "protobuf"))] == ["-10.0", "+60.0"]


def test_the_run_is_followed_until_its_users_run():
    from load_cli import until_users_run  # loadtest/ is on the path since native_split is loaded

    out = ["referee load: profile noop, 1 worker(s)\n", "server 127.0.0.1:4000, pids [4321], CPUs [0, 1]\n",
           "    2.0/25 s  users    0  requests        0\n", "    6.5/25 s  users   20  requests 5000\n",
           "    8.5/25 s  users   20  requests 7400\n"]
    seen, echoed = [], []
    assert until_users_run(iter(out), seen, echo=echoed.append) == (4321, 18.5)
    assert seen == echoed == out[:4]  # nothing read past the first line with users
    with pytest.raises(SystemExit, match="no running users"):
        until_users_run(iter(out[:3]), [])


def test_arguments_are_checked_before_anything_runs(capsys):
    for argv, said in ((["--profiles", "noop,nope"], "profiles are some of"), (["--profiles", "mixed"], "profiles are"),
                       (["--seconds", "10", "--record", "8"], "--record must leave")):
        with pytest.raises(SystemExit) as stop:
            native.main(argv)
        assert stop.value.code == 2 and said in capsys.readouterr().err


def test_without_perf_it_says_so(monkeypatch, capsys):
    monkeypatch.setattr(native.shutil, "which", lambda name, **kw: None)
    with pytest.raises(SystemExit) as stop:
        native.main(["--profiles", "noop"])
    assert stop.value.code == 2 and "perf is not installed" in capsys.readouterr().err


def _perf_records() -> bool:
    if shutil.which("perf") is None:
        return False
    probe = subprocess.run(["perf", "record", "-e", "cpu-clock", "-o", "/dev/null", "--", "true"],
                           capture_output=True, check=False)
    return probe.returncode == 0


@pytest.mark.load
@pytest.mark.skipif(importlib.util.find_spec("locust") is None, reason="needs the [load] extra")
@pytest.mark.skipif(not _perf_records(), reason="needs perf, allowed to record")
def test_a_real_run_splits_the_servers_cpu_into_parts_that_add_up():
    out = subprocess.run([sys.executable, str(LOADTEST / "native_split.py"), "--profiles", "noop,validate",
                          "--seconds", "18", "--record", "3", "--users", "4", "--rate", "200"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    result = json.loads(out.stdout.strip().splitlines()[-1])
    for profile in ("noop", "validate"):
        (run,) = result["runs"][profile]
        assert run["failures"] == 0 and run["server_us_per_call"] > 0
        assert sum(run["shares"].values()) == pytest.approx(1.0, abs=0.02)  # perf rounds each line to 0.01%
        assert run["shares"].get("interpreter", 0) > 0.05  # the server is a Python process
        per_call = result["per_call_us"][profile]
        assert sum(v for k, v in per_call.items() if k != "all") == pytest.approx(per_call["all"], rel=0.03)
    # our handlers are Python: a game call spends more of the interpreter than a no-op call
    assert result["per_call_us"]["validate"]["interpreter"] > result["per_call_us"]["noop"]["interpreter"]
