"""harness/common/cakelib.finish, the end every harness's run shares: the
report as JSON where --json asked for it, the verdict line, the exit status
(harness_finish.test; the harnesses themselves run on the GPU machine)."""
import contextlib
import io
import json
import os
import sys

sys.path.insert(0, os.path.join(sys.argv[1], "harness", "common"))
import cakelib  # noqa: E402

out = sys.argv[2]
buf = io.StringIO()
with contextlib.redirect_stdout(buf):
    assert cakelib.finish([{"B": 1, "ours": {"median_ms": 0.5}}], out, True) == 0
    assert cakelib.finish([], None, False, blank_line=True) == 1
assert json.load(open(out)) == [{"B": 1, "ours": {"median_ms": 0.5}}]
print(buf.getvalue(), end="")
