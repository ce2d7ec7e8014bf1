"""The wheel's `ampprof` console script, where the package has no bundled executable (a source tree)."""

import os
import subprocess
import sys
import unittest
from unittest import mock

import ampprof._executable as executable


class ConsoleScriptTest(unittest.TestCase):
    def test_without_the_bundled_executable_it_says_so_in_one_line(self):
        if executable.bundled_executable() is not None:
            self.skipTest("this package has its bundled executable (an installed wheel)")
        result = subprocess.run([sys.executable, "-m", "ampprof", "version"], capture_output=True, text=True)
        self.assertEqual(result.returncode, 2)
        self.assertEqual(result.stdout, "")
        (line,) = result.stderr.splitlines()
        self.assertIn("the bundled executable", line)
        self.assertIn("incomplete", line)

    def test_a_wrong_executable_override_is_named(self):
        with mock.patch.dict(os.environ, {"AMPPROF_EXECUTABLE": "/nonexistent/ampprof"}):
            with self.assertRaisesRegex(executable.AmpprofError, r"AMPPROF_EXECUTABLE=/nonexistent/ampprof"):
                executable.find_executable()


if __name__ == "__main__":
    unittest.main()
