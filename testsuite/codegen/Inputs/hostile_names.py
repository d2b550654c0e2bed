"""Compiles examples/gemm_bf16_sm90a.cake renamed with hostile names
(hostile_names.test): its tensors and scalars named like C and CUDA names
(NULL, memcpy, dim3, CAKE_SUCCESS, cudaSuccess, static_assert), the input
file named with a newline and an `#error` line, the outputs with a quote, a
backslash and a newline. Prints what each step did, for FileCheck.

usage: hostile_names.py CAKEC 'NVCC ARGS' SRCROOT OUTDIR
"""
import os
import re
import shlex
import subprocess
import sys

cakec, nvcc, root, out = sys.argv[1], shlex.split(sys.argv[2]), sys.argv[3], sys.argv[4]


def renamed(example, names):
    """The example's text with its names renamed in the code only (not in
    comments); the examples' parameter names are whole words."""
    lines = []
    for ln in open(os.path.join(root, "examples", example)).read().splitlines(keepends=True):
        code, hash_, comment = ln.partition("#")
        for old, new in names.items():
            code = re.sub(r"\b%s\b" % old, new, code)
        lines.append(code + hash_ + comment)
    return "".join(lines)


text = renamed("gemm_bf16_sm90a.cake",
               {"A": "NULL", "B": "memcpy", "C": "dim3", "M": "CAKE_SUCCESS", "N": "cudaSuccess", "K": "static_assert"})
inject = "\n#error injected through the %s name\n"
src = os.path.join(out, "gemm" + inject % "input" + "x.cake")
with open(src, "w") as f:
    f.write(text)
cu = os.path.join(out, 'out"\\' + inject % "output" + "y.cu")
h = os.path.join(out, 'out"\\' + inject % "output" + "y.h")
for path in (cu, h):
    r = subprocess.run([cakec, src, "-o", path], capture_output=True, text=True)
    print("cakec %s: exit %d %s" % (os.path.splitext(path)[1], r.returncode, r.stderr.strip()))
first = open(cu).readline()
print("first line:", first.rstrip("\n"))
print("#line naming the output:", next(ln for ln in open(cu) if ln.startswith("#line") and "y.cu" in ln).rstrip())
body = open(cu).read()
print("launcher:", re.search(r'extern "C" int gemm_bf16_launch\([^)]*\)', body).group(0))
print("returns:", "return CAKE_SUCCESS;" in body and "ok" or "missing")
# nvcc cannot open a file whose name holds a newline: it builds a copy.
plain = os.path.join(out, "gemm.cu")
with open(plain, "w") as f:
    f.write(body)
r = subprocess.run(nvcc + ["-c", plain, "-o", os.path.join(out, "gemm.o")], capture_output=True, text=True)
print("nvcc: exit %d%s" % (r.returncode, "" if r.returncode == 0 else "\n" + r.stderr))
for lang, cc in (("c", "gcc"), ("c++", "g++")):
    r = subprocess.run([cc, "-x", lang, "-fsyntax-only", "-Wall", "-Werror", "-trigraphs", "-include", "stdint.h", h],
                       capture_output=True, text=True)
    print("%s header: exit %d%s" % (cc, r.returncode, "" if r.returncode == 0 else "\n" + r.stderr))

# The cp.async launcher (sm_80): tensors named like the launcher's own loop
# variables and locals (d, e, msg), scalars like its types.
src80 = os.path.join(out, "gemm80.cake")
with open(src80, "w") as f:
    f.write(renamed("gemm_bf16_sm80.cake",
                    {"A": "d", "B": "msg", "C": "e", "M": "size_t", "N": "uint8_t", "K": "va_list"}))
cu80 = os.path.join(out, "gemm80.cu")
r = subprocess.run([cakec, src80, "-o", cu80], capture_output=True, text=True)
print("cakec sm_80: exit %d %s" % (r.returncode, r.stderr.strip()))
body = open(cu80).read()
print("sm_80 launcher:", re.search(r'extern "C" int gemm_bf16_sm80_launch\([^)]*\)', body).group(0))
nvcc80 = [a for a in nvcc if not a.startswith("-gencode")] + ["-gencode=arch=compute_80,code=sm_80"]
r = subprocess.run(nvcc80 + ["-c", cu80, "-o", os.path.join(out, "gemm80.o")], capture_output=True, text=True)
print("nvcc sm_80: exit %d%s" % (r.returncode, "" if r.returncode == 0 else "\n" + r.stderr))
