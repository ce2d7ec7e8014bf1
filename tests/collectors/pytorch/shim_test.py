"""Tests of the PyTorch shim (collectors/pytorch) against the fake torch in fake_torch/.

Each test runs a small script in a fresh interpreter, as `ampprof run` would: the shim directory first
on PYTHONPATH, then the fake torch, with the launcher's environment variables. The script prints
torch.events as JSON.

  python3 shim_test.py SHIM_DIR [FAKE_NVTX_LIBRARY [FAKE_INJECTION_LIBRARY]]
"""

import json
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
FAKE_TORCH = os.path.join(HERE, "fake_torch")
SHIM_DIR = None
FAKE_NVTX_LIBRARY = None
FAKE_INJECTION_LIBRARY = None

TRAINING_LOOP = """
import torch
opt = torch.optim.SGD([], name="sgd")
scaler = torch.amp.GradScaler("cuda")
for _ in range(ITERATIONS):
    with torch.autocast("cuda", dtype="float16"):
        pass
    scaler.step(opt)
    scaler.update()
"""


def run(script, env=None, extra_path=()):
    environment = {key: value for key, value in os.environ.items() if not key.startswith("AMPPROF_")}
    environment["PYTHONPATH"] = os.pathsep.join([SHIM_DIR, *extra_path, FAKE_TORCH])
    environment["AMPPROF_NVTX_LIBRARY"] = "torch"  # the fake torch.cuda.nvtx records what it gets
    environment["PATH"] = os.environ.get("PATH", "")
    environment.update(env or {})
    body = textwrap.dedent(script) + "\nimport json, torch\nprint('EVENTS=' + json.dumps(torch.events))\n"
    result = subprocess.run([sys.executable, "-c", body], env=environment, capture_output=True, text=True,
                            timeout=60)
    if result.returncode != 0:
        raise AssertionError("script failed (%d):\n%s" % (result.returncode, result.stderr))
    events_line = [line for line in result.stdout.splitlines() if line.startswith("EVENTS=")][-1]
    events = [tuple(event) for event in json.loads(events_line[len("EVENTS="):])]
    return events, result.stdout, result.stderr


def nvtx_only(events):
    return [event for event in events if event[0].startswith("nvtx_")]


class WithoutTheLauncher(unittest.TestCase):
    def test_a_stray_pythonpath_changes_nothing(self):
        events, _, stderr = run(TRAINING_LOOP.replace("ITERATIONS", "3"), env={"AMPPROF_PRECISION": "fp32"})
        self.assertIn(("autocast", "cuda", True), events)
        self.assertEqual(nvtx_only(events), [])
        self.assertEqual(stderr, "")


class LazyPatching(unittest.TestCase):
    def test_torch_is_not_imported_until_the_script_imports_it(self):
        events, stdout, _ = run("""
            import sys
            print('BEFORE', 'torch' in sys.modules)
            import torch
            print('HOOK_LEFT', any(type(f).__name__ == 'TorchImportHook' for f in sys.meta_path))
            print('LOADER', type(torch.__spec__.loader).__name__, 'exec_module' in vars(torch.__spec__.loader))
        """, env={"AMPPROF_SHIM": "1"})
        self.assertIn("BEFORE False", stdout)
        self.assertIn("HOOK_LEFT False", stdout)
        self.assertIn("LOADER SourceFileLoader False", stdout, "the loader is torch's own again")

    def test_a_script_without_torch_runs_untouched(self):
        environment = dict(os.environ, PYTHONPATH=SHIM_DIR, AMPPROF_SHIM="1", AMPPROF_PRECISION="fp32")
        result = subprocess.run([sys.executable, "-c", "import json; print(json.dumps([1]))"], env=environment,
                                capture_output=True, text=True, timeout=60)
        self.assertEqual((result.returncode, result.stdout, result.stderr), (0, "[1]\n", ""))


class Fp32Mode(unittest.TestCase):
    def test_every_autocast_and_grad_scaler_is_disabled(self):
        events, stdout, stderr = run("""
            import torch
            with torch.autocast("cuda", "float16", True): pass          # enabled passed positionally
            with torch.amp.autocast("cuda", enabled=True): pass
            with torch.cuda.amp.autocast(): pass                         # subclass calling super().__init__
            @torch.autocast("cuda")
            def f(): pass
            f()
            for scaler in (torch.amp.GradScaler("cuda", enabled=True), torch.cuda.amp.GradScaler()):
                print("SCALER", scaler.is_enabled(), scaler.scale(2.0))
            opt = torch.optim.SGD([])
            torch.cuda.amp.GradScaler().step(opt)                        # a disabled scaler still steps
        """, env={"AMPPROF_SHIM": "1", "AMPPROF_PRECISION": "fp32"})
        autocasts = [event for event in events if event[0] == "autocast"]
        self.assertEqual(autocasts, [("autocast", "cuda", False)] * 4)
        self.assertEqual(stdout.count("SCALER False 2.0"), 2)
        self.assertIn(("optimizer_step", "sgd"), events)
        self.assertEqual(stderr, "")

    def test_amp_mode_leaves_the_script_as_written(self):
        events, _, _ = run(TRAINING_LOOP.replace("ITERATIONS", "1"), env={"AMPPROF_SHIM": "1", "AMPPROF_PRECISION": "amp"})
        self.assertIn(("autocast", "cuda", True), events)
        self.assertIn(("update_scale",), events)

    def test_a_failure_undoes_every_patch_with_one_warning(self):
        events, _, stderr = run("""
            import torch
            with torch.autocast("cuda"): pass
            print("SCALER", torch.cuda.amp.GradScaler().is_enabled())
        """, env={"AMPPROF_SHIM": "1", "AMPPROF_PRECISION": "fp32", "FAKE_TORCH_SCALER_WITHOUT_ENABLED": "1"})
        self.assertIn(("autocast", "cuda", True), events, "autocast was patched before the failure, then restored")
        self.assertEqual(stderr.count("ampprof:"), 1, stderr)
        self.assertIn("forcing FP32 (autocast and GradScaler off) failed", stderr)


class StepMarks(unittest.TestCase):
    def test_grad_scaler_updates_end_steps(self):
        events, _, stderr = run(TRAINING_LOOP.replace("ITERATIONS", "4"), env={"AMPPROF_SHIM": "1"})
        nvtx = nvtx_only(events)
        starts = [event for event in nvtx if event[0] == "nvtx_start"]
        self.assertEqual([event[1] for event in starts], ["ampprof:step"] * 4)
        # Iteration 1: scaler.step > optimizer.step, then scaler.update, then the first step range starts.
        self.assertEqual(nvtx[:7], [
            ("nvtx_push", "ampprof:scaler.step"), ("nvtx_push", "ampprof:optimizer.step"), ("nvtx_pop",),
            ("nvtx_pop",), ("nvtx_push", "ampprof:scaler.update"), ("nvtx_pop",), ("nvtx_start", "ampprof:step", 1)])
        ends = [event for event in nvtx if event[0] == "nvtx_end"]
        self.assertEqual(ends, [("nvtx_end", 1), ("nvtx_end", 2), ("nvtx_end", 3)],
                         "each boundary ends the previous step (the last is ended at exit, after the print)")
        self.assertEqual(stderr, "")

    def test_the_range_open_at_exit_is_ended(self):
        result = subprocess.run(
            # Registered before torch is imported, so it runs after the shim's handler (atexit is LIFO).
            [sys.executable, "-c", "import atexit, json, sys\n"
             "atexit.register(lambda: print('EXIT=' + json.dumps(sys.modules['torch'].events[-1])))\n" +
             TRAINING_LOOP.replace("ITERATIONS", "2")],
            env=dict(os.environ, PYTHONPATH=os.pathsep.join([SHIM_DIR, FAKE_TORCH]), AMPPROF_SHIM="1",
                     AMPPROF_NVTX_LIBRARY="torch"),
            capture_output=True, text=True, timeout=60)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn('EXIT=["nvtx_end", 2]', result.stdout)

    def test_a_second_optimizer_step_stays_inside_the_step(self):
        events, _, _ = run("""
            import torch
            opt = torch.optim.SGD([])
            scaler = torch.amp.GradScaler("cuda")
            for _ in range(3):
                scaler.step(opt)
                opt.step()              # the amp.double_optimizer_step bug
                scaler.update()
        """, env={"AMPPROF_SHIM": "1"})
        starts = [event for event in events if event[:2] == ("nvtx_start", "ampprof:step")]
        self.assertEqual(len(starts), 3, "one boundary per scaler.update, none at optimizer steps")

    def test_without_a_scaler_the_first_optimizer_ends_steps(self):
        events, _, _ = run("""
            import torch
            generator, discriminator = torch.optim.SGD([], name="g"), torch.optim.SGD([], name="d")
            for _ in range(3):
                discriminator.step()
                generator.step()
        """, env={"AMPPROF_SHIM": "1"})
        sequence = [event for event in events if event[0] in ("optimizer_step", "nvtx_start")]
        self.assertEqual(sequence, [("optimizer_step", "d"), ("nvtx_start", "ampprof:step", 1), ("optimizer_step", "g")] +
                         [("optimizer_step", "d"), ("nvtx_start", "ampprof:step", 2), ("optimizer_step", "g")] +
                         [("optimizer_step", "d"), ("nvtx_start", "ampprof:step", 3), ("optimizer_step", "g")])

    @unittest.skipIf(os.environ.get("FAKE_NVTX_LIBRARY") is None and len(sys.argv) < 3, "no fake NVTX library built")
    def test_ranges_go_to_the_ampprof_domain_through_an_nvtx_library(self):
        with tempfile.TemporaryDirectory() as directory:
            log = os.path.join(directory, "nvtx.log")
            events, _, stderr = run(TRAINING_LOOP.replace("ITERATIONS", "2"),
                                    env={"AMPPROF_SHIM": "1", "AMPPROF_NVTX_LIBRARY": FAKE_NVTX_LIBRARY,
                                         "FAKE_NVTX_LOG": log})
            with open(log) as file:
                calls = file.read().splitlines()
        self.assertEqual(nvtx_only(events), [], "torch.cuda.nvtx is not used when a library is found")
        self.assertEqual(stderr, "")
        self.assertEqual(calls[0], "create ampprof")
        self.assertIn("push 0x1234 scaler.step v3 s48", calls)
        self.assertIn("push 0x1234 optimizer.step v3 s48", calls)
        self.assertEqual([call for call in calls if call.startswith(("start", "end"))],
                         ["start 0x1234 step 101", "end 0x1234 101", "start 0x1234 step 102", "end 0x1234 102"])


class TorchOps(unittest.TestCase):
    def test_emit_nvtx_with_shapes_without_initialising_cuda(self):
        events, stdout, stderr = run("""
            import torch
            print("CUDA", torch.cuda.is_initialized())
        """, env={"AMPPROF_SHIM": "1", "AMPPROF_TORCH_OPS": "1"})
        self.assertIn("CUDA False", stdout)
        self.assertIn(("profiler_enabled", "nvtx record_shapes"), events)
        self.assertNotIn(("synchronize",), events)
        self.assertEqual(stderr, "")

    def test_the_scripts_own_profiler_takes_over(self):
        events, stdout, stderr = run("""
            import torch
            torch.cuda.init()
            with torch.autograd.profiler.profile():
                print("PROFILING")
        """, env={"AMPPROF_SHIM": "1", "AMPPROF_TORCH_OPS": "1"})
        self.assertIn("PROFILING", stdout)
        self.assertEqual([event for event in events if event[0].startswith("profiler")],
                         [("profiler_enabled", "nvtx record_shapes"), ("profiler_disabled", "nvtx record_shapes"),
                          ("profiler_enabled", "kineto"), ("profiler_disabled", "kineto")])
        self.assertIn(("synchronize",), events, "CUDA was initialised by then, so emit_nvtx's exit synchronises")
        self.assertEqual(stderr.count("ampprof:"), 1)


class LibraryLogs(unittest.TestCase):
    def test_each_python_process_gets_its_own_cublas_and_cudnn_log(self):
        script = """
            import os, subprocess, sys
            print("PARENT", os.getpid(), os.environ["CUDNN_LOGDEST_DBG"], os.environ["CUBLAS_LOGDEST_DBG"])
            child = "import os; print('CHILD', os.getpid(), os.environ['CUDNN_LOGDEST_DBG'])"
            print(subprocess.run([sys.executable, "-c", child], capture_output=True, text=True).stdout.strip())
        """
        _, stdout, stderr = run(script, env={"AMPPROF_SHIM": "1", "CUDNN_LOGDEST_DBG": "/logs/cudnn.%i.log",
                                             "CUBLAS_LOGDEST_DBG": "/logs/cublas.%i.log",
                                             "CUBLASLT_LOG_FILE": "/logs/cublaslt.%i.log"})
        parent = [line.split() for line in stdout.splitlines() if line.startswith("PARENT")][0]
        child = [line.split() for line in stdout.splitlines() if line.startswith("CHILD")][0]
        self.assertEqual(parent[2:], ["/logs/cudnn.%s.log" % parent[1], "/logs/cublas.%s.log" % parent[1]])
        self.assertEqual(child[2], "/logs/cudnn.%s.log" % child[1], "the child expands the template itself")
        self.assertNotEqual(parent[1], child[1])
        self.assertEqual(stderr, "")


class Chaining(unittest.TestCase):
    def test_the_next_sitecustomize_runs(self):
        with tempfile.TemporaryDirectory() as other:
            with open(os.path.join(other, "sitecustomize.py"), "w") as file:
                file.write("import builtins\nbuiltins.OTHER_SITECUSTOMIZE = True\n")
            for shim in ("0", "1"):
                _, stdout, stderr = run("import builtins\nprint('OTHER', getattr(builtins, 'OTHER_SITECUSTOMIZE', False))\n",
                                        env={"AMPPROF_SHIM": shim}, extra_path=[other])
                self.assertIn("OTHER True", stdout)
                self.assertEqual(stderr, "")

    # What the program sees of `sitecustomize` and sys.path, with the shim in front and without it.
    TRANSPARENCY_PROBE = """
        import sys
        try:
            import sitecustomize
            print("SITECUSTOMIZE", getattr(sitecustomize, "__file__", None), getattr(sitecustomize, "USER_ATTRIBUTE", None),
                  sys.modules["sitecustomize"] is sitecustomize)
        except ImportError as error:
            print("SITECUSTOMIZE missing", error.name)
        print("PATH", sys.path)
    """

    def probe(self, env, extra_path, shim):
        if shim:
            _, stdout, stderr = run(self.TRANSPARENCY_PROBE, env=env, extra_path=extra_path)
        else:  # the same interpreter and path, without ampprof's directory
            environment = {key: value for key, value in os.environ.items() if not key.startswith("AMPPROF_")}
            environment.update(env, PYTHONPATH=os.pathsep.join([*extra_path, FAKE_TORCH]))
            result = subprocess.run([sys.executable, "-c", textwrap.dedent(self.TRANSPARENCY_PROBE)], env=environment,
                                    capture_output=True, text=True, timeout=60)
            self.assertEqual(result.returncode, 0, result.stderr)
            stdout, stderr = result.stdout, result.stderr
        return [line for line in stdout.splitlines() if not line.startswith("EVENTS=")], stderr

    def test_the_program_gets_its_own_sitecustomize_and_sys_path(self):
        with tempfile.TemporaryDirectory() as other:
            with open(os.path.join(other, "sitecustomize.py"), "w") as file:
                file.write("import sys\nUSER_ATTRIBUTE = 42\nprint('PATH_SEEN_BY_SITECUSTOMIZE', sys.path)\n")
            bare, _ = self.probe({}, [other], shim=False)
            self.assertIn("SITECUSTOMIZE %s 42 True" % os.path.join(other, "sitecustomize.py"), bare)
            for shim in ("0", "1"):
                traced, stderr = self.probe({"AMPPROF_SHIM": shim}, [other], shim=True)
                self.assertEqual(traced, bare, "AMPPROF_SHIM=" + shim)
                self.assertEqual(stderr, "")

    def test_without_a_next_sitecustomize_the_program_sees_what_it_would_without_ampprof(self):
        bare, _ = self.probe({}, [], shim=False)  # ImportError, or the interpreter's own (Debian's)
        traced, stderr = self.probe({"AMPPROF_SHIM": "1"}, [], shim=True)
        self.assertEqual(traced, bare)
        self.assertEqual(stderr, "")

    def test_a_failing_next_sitecustomize_is_reported_as_python_would(self):
        with tempfile.TemporaryDirectory() as other:
            with open(os.path.join(other, "sitecustomize.py"), "w") as file:
                file.write("raise ValueError('broken')\n")
            _, stdout, stderr = run("print('RAN')\n", env={"AMPPROF_SHIM": "1"}, extra_path=[other])
            self.assertIn("RAN", stdout)
            self.assertIn("Error in sitecustomize; set PYTHONVERBOSE for traceback:\nValueError: broken", stderr)

    def test_a_second_copy_of_the_shim_neither_loops_nor_installs_twice(self):
        with tempfile.TemporaryDirectory() as other:
            os.symlink(os.path.join(SHIM_DIR, "sitecustomize.py"), os.path.join(other, "sitecustomize.py"))
            os.symlink(os.path.join(SHIM_DIR, "ampprof_shim"), os.path.join(other, "ampprof_shim"))
            events, _, stderr = run(TRAINING_LOOP.replace("ITERATIONS", "2"), env={"AMPPROF_SHIM": "1"},
                                    extra_path=[other])
        self.assertEqual(len([event for event in events if event[0] == "nvtx_start"]), 2)
        self.assertEqual(stderr, "")


@unittest.skipUnless(sys.platform.startswith("linux"), "RTLD_NOLOAD lookups are Linux's")
class ExitFlush(unittest.TestCase):
    """The collector's exit flush from a Python atexit function: Python dying of Ctrl-C skips the C one."""

    def run_until_ctrl_c(self, preload, code="raise KeyboardInterrupt"):
        if FAKE_INJECTION_LIBRARY is None:
            self.skipTest("no fake injection library given")
        with tempfile.TemporaryDirectory() as tmp:
            log = os.path.join(tmp, "finish.log")
            environment = {key: value for key, value in os.environ.items() if not key.startswith("AMPPROF_")}
            environment.update({"PYTHONPATH": os.pathsep.join([SHIM_DIR, FAKE_TORCH]), "AMPPROF_SHIM": "1",
                                "CUDA_INJECTION64_PATH": FAKE_INJECTION_LIBRARY, "FAKE_INJECTION_LOG": log})
            if preload:  # loaded as the CUDA driver would have loaded it
                environment["LD_PRELOAD"] = FAKE_INJECTION_LIBRARY
            result = subprocess.run([sys.executable, "-c", code], env=environment,
                                    capture_output=True, text=True, timeout=60)
            finished = []
            if os.path.exists(log):
                with open(log) as lines:
                    finished = lines.read().splitlines()
            return result, finished

    def test_ctrl_c_still_finishes_the_trace(self):
        result, finished = self.run_until_ctrl_c(preload=True)
        self.assertEqual(result.returncode, -2, "Python dies of its own SIGINT, as after a real Ctrl-C")
        self.assertEqual(len(finished), 1, "the collector is asked to finish exactly once")

    def test_os_exit_finishes_the_trace_first(self):
        result, finished = self.run_until_ctrl_c(preload=True, code="import os; os._exit(7)")
        self.assertEqual(result.returncode, 7, "the status the program asked for")
        self.assertEqual(len(finished), 1, "os._exit skips atexit: the shim's wrapper finished the trace")

    def test_a_forked_child_that_calls_os_exit_leaves_the_trace_alone(self):
        code = ("import os\n"
                "pid = os.fork()\n"
                "if pid == 0:\n"
                "    os._exit(0)\n"
                "os.waitpid(pid, 0)\n")
        result, finished = self.run_until_ctrl_c(preload=True, code=code)
        self.assertEqual(result.returncode, 0)
        self.assertEqual(len(finished), 1, "only the parent's exit finishes (its atexit function)")
        self.assertEqual(finished[0], f"finish {finished[0].split()[1]}")

    def test_a_process_that_never_loaded_the_collector_is_left_alone(self):
        result, finished = self.run_until_ctrl_c(preload=False)
        self.assertEqual(result.returncode, -2)
        self.assertEqual(finished, [], "the shim never loads the collector itself")
        self.assertNotIn("ampprof", result.stderr)


if __name__ == "__main__":
    SHIM_DIR = os.path.abspath(sys.argv[1])
    if len(sys.argv) > 2:
        FAKE_NVTX_LIBRARY = os.path.abspath(sys.argv[2])
    if len(sys.argv) > 3:
        FAKE_INJECTION_LIBRARY = os.path.abspath(sys.argv[3])
    unittest.main(argv=[sys.argv[0], "-v"])
