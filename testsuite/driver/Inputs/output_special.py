#!/usr/bin/env python3
"""output_special.py CAKEC DIR: outputs that are not plain new files.

Prints one line per case for FileCheck: a FIFO is written in place (a reader
gets the text, the FIFO stays one); a 251-character file name (legal: the
limit is 255) is written; /dev/stdout redirected to a file opened for
appending keeps what the file held; a symbolic link stays a link and the file
it names gets the text; no temporary file is left anywhere."""
import os
import shutil
import stat
import subprocess
import sys
import threading

cakec, root = sys.argv[1], sys.argv[2]
shutil.rmtree(root, ignore_errors=True)
os.makedirs(root)
good = os.path.join(root, "good.cake")
with open(good, "w") as f:
    f.write("x = 1\n")


def cakec_to(output, stdout=subprocess.PIPE):
    return subprocess.run([cakec, "--emit=ast", good, "-o", output], stdout=stdout, stderr=subprocess.PIPE, text=True)


# A FIFO, read by a thread while cakec writes it.
fifo = os.path.join(root, "fifo")
os.mkfifo(fifo)
got = []
reader = threading.Thread(target=lambda: got.append(open(fifo).read()))
reader.start()
r = cakec_to(fifo)
reader.join(timeout=30)
print(f"fifo: status={r.returncode} read-ast={'AssignStmt' in ''.join(got)} "
      f"still-fifo={stat.S_ISFIFO(os.lstat(fifo).st_mode)}")

# The longest legal name.
long_name = os.path.join(root, "x" * 247 + ".out")
r = cakec_to(long_name)
print(f"long-name: status={r.returncode} written={os.path.isfile(long_name)} {r.stderr.strip()}")

# /dev/stdout on a file opened for appending: the text is added, not
# swapped in by a rename that would drop what the file held.
log = os.path.join(root, "log.txt")
with open(log, "w") as f:
    f.write("earlier line\n")
with open(log, "a") as f:
    r = cakec_to("/dev/stdout", stdout=f)
text = open(log).read()
print(f"dev-stdout-append: status={r.returncode} kept={text.startswith('earlier line')} "
      f"appended={'AssignStmt' in text}")

# /dev/fd/1 the same way (/dev/fd is a link to /proc/self/fd, the link
# inside it names the open file).
with open(log, "w") as f:
    f.write("earlier line\n")
with open(log, "a") as f:
    r = cakec_to("/dev/fd/1", stdout=f)
text = open(log).read()
print(f"dev-fd-append: status={r.returncode} kept={text.startswith('earlier line')} "
      f"appended={'AssignStmt' in text}")

# A symbolic link to a file: the link stays, the file it names is replaced.
real = os.path.join(root, "real.out")
with open(real, "w") as f:
    f.write("old\n")
link = os.path.join(root, "link.out")
os.symlink("real.out", link)
r = cakec_to(link)
print(f"symlink: status={r.returncode} still-link={os.path.islink(link)} "
      f"target-written={'AssignStmt' in open(real).read()}")

left = [n for n in os.listdir(root) if n.startswith(".cakec.")]
left += [n for n in os.listdir("/dev") if n.startswith(".cakec.")]
print(f"temporary files left: {left}")
