#!/usr/bin/env python3
"""bench/costmodel/history.py - the recorded H200 runs -> history.csv.

    python3 bench/costmodel/history.py [-o bench/costmodel/history.csv] [--no-verify]

Reads the logs under bench/results/ (runs of 2026-11-30 onward) that print
per-shape times of our generated kernels, through the explicit list of
sources below (SOURCES: which log, which harness format, which .cake file and
-D defines each section timed, and which sections are left out and why), and
writes one row per (kernel_file, defines, shape, schedule version):

    kernel_file,defines,shape,ours_ms,peer_ms,date,source_log,unchanged_since,note

- ours_ms / peer_ms: the medians as the log prints them; for GEMM-shaped
  tables (harness/gemm, harness/fp8, harness/epilogue) the time is taken from
  whichever of ms and TFLOP/s carries more digits (parse.py's rule).
- The version of the .cake file a run used is the file as committed with
  the log (the commit that last changed the log's content; where that commit
  also changed the kernel, its README says the run measured the committed
  change), unless a source names another commit ('ref', from its README).
- Schedule versions: the file with comments and whitespace removed; a family
  row's version is its route's module (and cake.instantiate constants) at
  that commit, so a family edit that leaves the shape's route alone leaves
  the row current. SAME_SCHEDULE lists edits that changed the text but not
  the schedule (the README that says so is named there).
- Of several runs of one (kernel, defines, shape, version) the latest is kept
  (commit time of the log, then the log's own timestamp, then list order).
- unchanged_since: yes when the version is the one at HEAD.
- Every row is checked with `cakec --report --report-format=json` (exit 0 and
  "estimated": true); rows that fail are left out and listed on stderr with
  the error, as are the sections SOURCES skips.
"""
import argparse
import collections
import csv
import functools
import io
import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

REPO = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
CAKEC = os.path.join(REPO, "build-test/bin/cakec")
COLUMNS = ["kernel_file", "defines", "shape", "ours_ms", "peer_ms", "date", "source_log", "unchanged_since", "note"]


def git(*args):
    return subprocess.run(["git", "-C", REPO] + list(args), capture_output=True, text=True).stdout


# ----------------------------------------------------------------------------
# git: versions of files


@functools.lru_cache(maxsize=None)
def log_commit(path):
    """(sha, iso date) of the commit that last changed the file's content (renames skipped)."""
    out = git("log", "--follow", "--format=C %H %ad", "--date=iso-strict", "--name-status", "--", path)
    cur = None
    for ln in out.splitlines():
        if ln.startswith("C "):
            cur = tuple(ln.split()[1:3])
            continue
        if not ln.strip():
            continue
        st = ln.split("\t")[0]
        if st in ("A", "M") or (st.startswith("R") and st != "R100") or st.startswith("C"):
            return cur
    return cur


@functools.lru_cache(maxsize=None)
def rev(commitish):
    return git("rev-parse", commitish).strip()


@functools.lru_cache(maxsize=None)
def commit_date(commitish):
    return git("log", "-1", "--format=%ad", "--date=iso-strict", commitish).strip()


@functools.lru_cache(maxsize=None)
def show(commit, path):
    """The file at a commit, or None."""
    r = subprocess.run(["git", "-C", REPO, "show", f"{commit}:{path}"], capture_output=True, text=True)
    return r.stdout if r.returncode == 0 else None


@functools.lru_cache(maxsize=None)
def file_commits(path):
    """Commits that touched path, oldest first: [(sha, date, subject)]."""
    out = git("log", "--reverse", "--format=%H%x09%ad%x09%s", "--date=iso-strict", "--", path)
    return [tuple(ln.split("\t", 2)) for ln in out.splitlines() if ln]


def first_version_after(commit, path):
    """The first commit after `commit` where path exists (a file committed after its run)."""
    d = commit_date(commit)
    for sha, date, _ in file_commits(path):
        if date >= d and show(sha, path) is not None:
            return sha
    return None


def normalize(text):
    """A .cake file without comments and whitespace: what a comment- or whitespace-only edit leaves."""
    out = []
    for line in text.splitlines():
        q, buf = None, []
        for ch in line:
            if q:
                buf.append(ch)
                if ch == q:
                    q = None
            elif ch in "\"'":
                q = ch
                buf.append(ch)
            elif ch == "#":
                break
            else:
                buf.append(ch)
        out.append("".join(buf))
    return re.sub(r"\s+", "", "\n".join(out))


# Edits that changed a file's text but not its schedule (so runs before and
# after are one version). (path, commit of the edit): why.
SAME_SCHEDULE = {
    ("examples/attention_fwd_sm90a.cake", "7984a36"):
        "consumers rewritten as a role family; generated CUDA the same but names (issue34_2026-12-02/README.md)",
    ("examples/gemm_bf16_pingpong_sm90a.cake", "bab5274"):
        "consumers rewritten as a role family; generated CUDA the same but names (issue34_2026-12-02/README.md)",
    ("examples/gemm_bf16_pingpong_cluster_sm90a.cake", "7984a36"):
        "consumers rewritten as a role family; generated CUDA the same but names (issue34_2026-12-02/README.md)",
    ("examples/rmsnorm_sm90a.cake", "9e1be7a"):
        "SPLIT/ROWS added; SPLIT=1 (the default) is the old schedule (rows2 README: within 1%)",
    ("examples/softmax_sm90a.cake", "9e1be7a"):
        "SPLIT/ROWS added; SPLIT=1 (the default) is the old schedule (rows2 README: within 1%)",
    ("examples/gemm_fp8_sm90a.cake", "4a06bdb"):
        "PROMOTE_EVERY added; its default 1 is the old promotion, PROMOTE=False untouched",
    ("examples/gemm_bf16_splitk_sm90a.cake", "26f0c1d"):
        "REDUCE added behind compile-time branches; REDUCE=False (the default) is the old schedule",
    ("examples/attention_decode_gqa_sm90a.cake", "20fd206"):
        "n_kv = lm.max(1, L // BN) for the gate; the same trip count at every L the launcher takes",
}


@functools.lru_cache(maxsize=None)
def version_key(path, commit):
    """A key equal for two commits whose files hold the same schedule: the normalized text,
    with SAME_SCHEDULE edits mapped back to the version before them."""
    text = show(commit, path)
    if text is None:
        return None
    key = normalize(text)
    # walk the file's history up to `commit`; an edit in SAME_SCHEDULE keeps the previous key
    keys = {}
    prev = None
    for sha, date, _ in file_commits(path):
        if date > commit_date(commit):
            break
        t = show(sha, path)
        k = normalize(t) if t is not None else None
        if prev is not None and any(sha.startswith(c) for (p, c) in SAME_SCHEDULE if p == path):
            keys[k] = keys.get(prev, prev)
        prev = k
    return keys.get(key, key)


def changes_between(path, old, new="HEAD"):
    """Commits after `old` up to `new` that changed the file's schedule text: [(short sha, subject)]."""
    d_old, d_new = commit_date(old), commit_date(new)
    out, prev = [], version_key(path, old)
    for sha, date, subj in file_commits(path):
        if date <= d_old or date > d_new:
            continue
        k = version_key(path, sha)
        if k != prev:
            out.append((sha[:7], subj))
        prev = k
    return out


# Short names for the commits that changed kernels (for the note column).
COMMIT_LABEL = {
    "fd0bec6": "P V behind next Q K^T",
    "a62db0e": "ping-pong became this file; one-role moved to attention_fwd_simple",
    "f6b9887": "3-d (B*H,S,D) tensors",
    "7984a36": "role family",
    "3737332": "declared shapes, any M",
    "435bf63": "declared shapes, tile counts rounded up",
    "b902534": "nested tile/k loops, 4 stages, C in quarters under the next tile",
    "b7318ff": "one wgmma group in flight",
    "bab5274": "role family",
    "4568b84": "five routes, cake.instantiate",
    "b28ae1c": "tiny and ping-pong routes",
    "eae436f": "mid route",
    "e359a60": "K > 2048 or K % 64 != 0 to persistent_cluster, no ping-pong route",
    "37ddf63": "split-K routes",
    "0b01bf3": "split-K guards M > 128",
    "26f0c1d": "REDUCE / DETERMINISTIC=False route",
    "2aa5e57": "row-wise on the persistent schedule",
    "bd9beae": "SA, SB staged through their own ring",
    "4a06bdb": "PROMOTE_EVERY",
    "20fd206": "safety-gate edit",
}


def label(sha, subj):
    for k, v in COMMIT_LABEL.items():
        if sha.startswith(k):
            return f"{sha[:7]} {v}"
    return f"{sha[:7]} {subj[:50]}"


# ----------------------------------------------------------------------------
# families: the route a shape takes in a given version of the family file


def parse_family(text, defines):
    consts, alias = {}, {}
    for ln in text.splitlines():
        s = ln.split("#")[0].rstrip()
        m = re.match(r"^([A-Z_][A-Z0-9_]*)\s*=\s*(.+)$", s)
        if m:
            try:
                consts[m.group(1)] = eval(m.group(2), {}, dict(consts))
            except Exception:
                pass
        m = re.match(r"^from\s+(\w+)\s+import\s+(\w+)\s+as\s+(\w+)", s)
        if m:
            alias[m.group(3)] = (m.group(1), ())
        m = re.match(r'^(\w+)\s*=\s*cake\.instantiate\("(\w+)"(.*)\)\s*$', s)
        if m:
            kv = tuple(sorted((k, v.strip()) for k, v in re.findall(r"(\w+)\s*=\s*([^,]+)", m.group(3))))
            alias[m.group(1)] = (m.group(2), kv)
    for k, v in defines.items():
        try:
            consts[k] = eval(v, {}, {})
        except Exception:
            consts[k] = v
    routes = []  # (alias, condition text or None for the fallback, guard stack)
    body, guards, chains = False, [], {}
    for ln in text.splitlines():
        s = ln.split("#")[0].rstrip()
        if s.startswith("@cake.family"):
            body = True
            continue
        if not body or not s.strip():
            continue
        ind = len(s) - len(s.lstrip())
        guards = [g for g in guards if g[0] < ind]
        m = re.match(r"^\s*(if|elif)\s+(.+):$", s) or re.match(r"^\s*(else):$", s)
        if m:
            kw = m.group(1)
            if kw == "if":
                chains[ind] = [m.group(2)]
                cond = m.group(2)
            else:
                prev = chains.get(ind, [])
                cond = "not (" + " or ".join(f"({c})" for c in prev) + ")" if prev else "True"
                if kw == "elif":
                    cond = f"({cond}) and ({m.group(2)})"
                    chains[ind] = prev + [m.group(2)]
            guards.append((ind, cond))
            continue
        m = re.match(r"^\s*lm\.route\(([\w.]+),\s*when=(.+)\)$", s)
        if m:
            routes.append((m.group(1), m.group(2), [g[1] for g in guards]))
        m = re.match(r"^\s*lm\.fallback\(([\w.]+)\)", s)
        if m:
            routes.append((m.group(1), None, [g[1] for g in guards]))
    return consts, alias, routes


def family_route(text, defines, shape):
    """(route alias, (module, instantiate constants)) for the shape."""
    consts, alias, routes = parse_family(text, defines)
    env = dict(consts)
    env.update(shape)
    for name, cond, guards in routes:
        if not all(eval(g, {}, env) for g in guards):
            continue
        if cond is None or eval(cond, {}, env):
            base = name.split(".")[0]
            return base, alias.get(base)
    return None, None


def family_imports(text):
    return sorted({m for m in re.findall(r"^from\s+(\w+)\s+import", text, re.M)} |
                  {m for m in re.findall(r'cake\.instantiate\("(\w+)"', text)})


# ----------------------------------------------------------------------------
# log parsers: each yields (section key, shape dict, ours_ms, peer_ms, extra)

GEMM_ROW = re.compile(r"^\s*(\d+)x(\d+)x(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)")
STAMP = re.compile(r"(\d{4}-\d\d-\d\d)T(\d\d:\d\d:\d\d)Z")


def best_ms(ms_text, tf_text, flops):
    """parse.py's rule: the time from whichever printed column has more significant digits."""
    ms = float(ms_text)
    tf = float(tf_text) if tf_text else 0.0
    if ms <= 0:
        return None
    if tf > 0 and 0.05 / tf < 0.00005 / ms:
        return flops / (tf * 1e9)
    return ms


def fmt(x):
    return f"{x:.6g}" if x is not None else ""


def gemm_sections(text):
    """harness/gemm output: sections by '== header' lines (or one unnamed section)."""
    secs, cur, stamp = [], None, None

    def new(hdr):
        return {"hdr": hdr, "rows": [], "wrong": set(), "flush": "read" if "FLUSH=read" in hdr else "write",
                "stamp": stamp, "routes": {}}

    cur = new("")
    last = None
    for ln in text.splitlines():
        m = STAMP.search(ln)
        if m and ln.startswith("=="):
            stamp = m.group(1) + " " + m.group(2)
            if cur["stamp"] is None:
                cur["stamp"] = stamp
            continue
        m = re.match(r"^=+ (.*)$", ln)
        if m:
            if cur["rows"] or cur["wrong"]:
                secs.append(cur)
            cur = new(m.group(1).strip())
            continue
        if (ln.startswith("device:") or ln.startswith("L2 flush before each sample")) and (cur["rows"] or cur["wrong"]):
            # a new harness process
            secs.append(cur)
            cur = new(cur["hdr"])
        if "L2 flush before each sample: reading" in ln:
            cur["flush"] = "read"
        m = re.match(r"^\s*(\d+) x\s+(\d+) x\s+(\d+): (\w+)", ln)
        if m:
            last = tuple(map(int, m.group(1, 2, 3)))
            if m.group(4) != "correct":
                cur["wrong"].add(last)
            continue
        m = re.match(r"^\s+route: (\S+)", ln)
        if m and last:
            cur["routes"][last] = m.group(1)
            continue
        m = GEMM_ROW.match(ln)
        if m:
            cur["rows"].append(m.groups())
    if cur["rows"] or cur["wrong"]:
        secs.append(cur)
    return secs


def parse_gemm(text):
    for s in gemm_sections(text):
        for g in s["rows"]:
            M, N, K = (int(x) for x in g[:3])
            flops = 2.0 * M * N * K
            ours, peer = best_ms(g[3], g[6], flops), best_ms(g[4], g[7], flops)
            bad = (M, N, K) in s["wrong"] or ours is None
            yield s["hdr"], {"M": M, "N": N, "K": K}, ours, peer, {
                "wrong": bad, "flush": s["flush"], "stamp": s["stamp"], "route": s["routes"].get((M, N, K))}


def parse_attention(text):
    """harness/attention/attn_bench.py tables: 'NAME (causal|non-causal), B=.. H=.. D=..' then rows."""
    seen, title, stamp = set(), None, None
    for ln in text.splitlines():
        m = STAMP.search(ln)
        if m and ln.startswith("=="):
            stamp = m.group(1) + " " + m.group(2)
        m = re.match(r"^\s*(\w+) \((causal|non-causal)\), B=(\d+) H=(\d+) D=(\d+): median", ln)
        if m:
            title = f"{m.group(1)} ({m.group(2)})"
            continue
        m = re.match(r"^\s*(\d+)x(\d+)x(\d+)x(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)", ln)
        if m and title:
            B, H, S, D = (int(x) for x in m.group(1, 2, 3, 4))
            key = (title, S)
            if key in seen:  # the summary repeats each table
                continue
            seen.add(key)
            yield title, {"BH": B * H, "S": S}, float(m.group(5)), float(m.group(6)), {"stamp": stamp}
        elif not ln.strip() or ln.lstrip().startswith("("):
            pass


def parse_kmeans(text):
    """harness/kmeans: 'B=.. N=.. K=.. D=..: median ...' then 'ours', 'triton' lines."""
    shape, ours, stamp = None, None, None
    for ln in text.splitlines():
        m = STAMP.search(ln)
        if m and ln.startswith("=="):
            stamp = m.group(1) + " " + m.group(2)
        m = re.match(r"^B=(\d+) N=(\d+) K=(\d+) D=(\d+): median", ln)
        if m:
            shape = {"B": int(m.group(1)), "N": int(m.group(2)), "K": int(m.group(3))}
            continue
        m = re.match(r"^(ours|triton)\s+([\d.]+)", ln)
        if m and shape:
            if m.group(1) == "ours":
                ours = float(m.group(2))
            else:
                yield "", shape, ours, float(m.group(2)), {"stamp": stamp}
                shape = None


def parse_labelled(text, head, shape_re, peer_name, flops_fn=None):
    """The torch harnesses (rows, fp8, epilogue, decode, gather): '== ... /tmp/cake_NAME.so' headers,
    a shape line, then '    ours  X ms  ...' and peer lines."""
    lib, shape, ours, ours_tf, stamp = "", None, None, None, None
    for ln in text.splitlines():
        m = re.match(r"^== .*?/tmp/cake_(?:rows_|epi_)?(\w+)\.so", ln)
        if m:
            lib = m.group(1)
            continue
        m = shape_re.match(ln)
        if m:
            shape, ours = m.groupdict(), None
            shape = {k: int(v) for k, v in shape.items()}
            continue
        m = re.match(r"^\s+(\w+)\s+([\d.]+) ms\s+([\d.]+) (TFLOP/s|TB/s)", ln)
        if m and shape is not None:
            if m.group(1) == "ours":
                ours, ours_tf = m.group(2), m.group(3) if m.group(4) == "TFLOP/s" else None
            elif m.group(1) == peer_name(lib) and ours is not None:
                peer, peer_tf = m.group(2), m.group(3) if m.group(4) == "TFLOP/s" else None
                if flops_fn and ours_tf:
                    f = flops_fn(shape)
                    o, p = best_ms(ours, ours_tf, f), best_ms(peer, peer_tf, f)
                else:
                    o, p = float(ours), float(peer)
                yield lib, dict(shape), o, p, {"stamp": stamp}
                ours = None


def gemm_flops(s):
    return 2.0 * s["M"] * s["N"] * s["K"]


def parse_rows(text):
    yield from parse_labelled(text, None, re.compile(r"^\s+M=(?P<M>\d+) N=\d+: [\d.]+ GB moved; median"),
                              lambda lib: "compile")


def parse_fp8(text):
    # like-for-like peer: cuBLASLt's fast accumulation for the unpromoted kernels, its promoted
    # (torch's default) accumulation for the promoted and scaled ones
    def peer(lib):
        return "lt_accum" if ("promote" in lib or "blockscaled" in lib) else "lt_fast"
    yield from parse_labelled(text, None, re.compile(r"^\s+(?P<M>\d+)x(?P<N>\d+)x(?P<K>\d+): median"), peer,
                              gemm_flops)


def parse_fp8_first(text):
    """blockscaled bench.log: lt_accum is the only peer."""
    yield from parse_labelled(text, None, re.compile(r"^\s+(?P<M>\d+)x(?P<N>\d+)x(?P<K>\d+): median"),
                              lambda lib: "lt_accum", gemm_flops)


def parse_epilogue(text):
    # eager = PyTorch's addmm + activation + residual (cuBLAS under it)
    yield from parse_labelled(text, None, re.compile(r"^\s+(?P<M>\d+)x(?P<N>\d+)x(?P<K>\d+): median"),
                              lambda lib: "eager", gemm_flops)


def parse_headed(text, heading, shape_of, peer):
    """A harness printing a heading per shape ('<heading>: ... median'), then
    one 'NAME  T ms' line per kernel: ours, then the peer's."""
    shape, ours = None, None
    for ln in text.splitlines():
        m = re.match(heading, ln)
        if m:
            shape, ours = shape_of(m), None
            continue
        m = re.match(r"^\s+(ours|%s)\s+([\d.]+) ms" % peer, ln)
        if m and shape:
            if m.group(1) == "ours":
                ours = float(m.group(2))
            elif ours is not None:
                yield "", shape, ours, float(m.group(2)), {}
                shape = None


def parse_decode(text):
    """harness/decode: '  B=.. L=..: median' then ours / sdpa / cudnn / flash2 (cuDNN the best peer)."""
    # 8 KV heads per sequence: the kernel's G is 8 B.
    return parse_headed(text, r"^\s+B=(\d+) L=(\d+): median",
                        lambda m: {"G": 8 * int(m.group(1)), "L": int(m.group(2))}, "cudnn")


def parse_gather(text):
    """harness/gather: '  M=.. rows of V=..: .. GB moved; median' then ours / index_select."""
    return parse_headed(text, r"^\s+M=(\d+) rows of V=(\d+): [\d.]+ GB moved; median",
                        lambda m: {"M": int(m.group(1)), "V": int(m.group(2))}, "index_select")


PARSERS = {"gemm": parse_gemm, "attention": parse_attention, "kmeans": parse_kmeans, "rows": parse_rows,
           "fp8": parse_fp8, "fp8_accum": parse_fp8_first, "epilogue": parse_epilogue, "decode": parse_decode,
           "gather": parse_gather}

# ----------------------------------------------------------------------------
# the sources: (log, parser, {section: spec}) and defaults. A section key is
# the text of its '== ' header (harness/gemm), 'NAME (causal|non-causal)'
# (attention), the .so name (torch harnesses) or '' (one kernel). A spec is
# (kernel file, defines[, options]) or SKIP(reason). Options: ref= the
# commit whose file the run used (default: the commit of the log), note=.

R = "bench/results/"
EX = "examples/"
GEMM = EX + "gemm_bf16_sm90a.cake"
PERS = EX + "gemm_bf16_persistent_sm90a.cake"
PCLU = EX + "gemm_bf16_persistent_cluster_sm90a.cake"
PP = EX + "gemm_bf16_pingpong_sm90a.cake"
PPC = EX + "gemm_bf16_pingpong_cluster_sm90a.cake"
CLU = EX + "gemm_bf16_cluster_sm90a.cake"
CLUN = EX + "gemm_bf16_cluster_n_sm90a.cake"
DEC = EX + "gemm_bf16_decode_sm90a.cake"
FAM = EX + "gemm_bf16_family_sm90a.cake"
SPLITK = EX + "gemm_bf16_splitk_sm90a.cake"
SM80 = EX + "gemm_bf16_sm80.cake"
ATT = EX + "attention_fwd_sm90a.cake"
ATTS = EX + "attention_fwd_simple_sm90a.cake"
KM = EX + "kmeans_assign_sm90a.cake"
FP8 = EX + "gemm_fp8_sm90a.cake"
FP8R = EX + "gemm_fp8_rowwise_sm90a.cake"


class SKIP:
    def __init__(self, why):
        self.why = why


def K(kfile, defines="", **opts):
    return dict(kfile=kfile, defines=defines, **opts)


SAN = "sanitizer-only shape list (timing beside the sanitizer run)"
FLUSHREAD = "FLUSH=read (clean L2 before each sample, not the harness default)"
EDITED = "hand-edited generated CUDA (not reproducible from a .cake file)"
DUP = "the same table as another log of this run"

# The sections of a whole-repo run log (hardening call 2, issue 34): every
# GEMM example and the attention examples, by the headings the run prints.
RUN_GEMMS = {
    "gemm_bf16_sm90a: bench": K(GEMM), "gemm_bf16_pingpong_sm90a: bench": K(PP),
    "gemm_bf16_cluster_sm90a: bench": K(CLU), "gemm_bf16_sm80: bench": K(SM80),
    "persistent: bench": K(PERS), "persistent_cluster: bench": K(PCLU), "pingpong_cluster: bench": K(PPC),
    "the family over its route list*": K(FAM)}
RUN_ATTENTION = {
    "attention_fwd (non-causal)": K(ATT), "attention_fwd (causal)": K(ATT, "CAUSAL=True"),
    "attention_fwd_simple (non-causal)": K(ATTS)}

SOURCES = [
    # --- 2026-11-30: the standard Hopper consumer, the derived drain, declared credits (harness/gemm)
    (R + "gemm_2026-11-30/run1-bench-gemm_bf16_sm90a.log", "gemm", {"": K(GEMM)}),
    (R + "gemm_2026-11-30/run1-bench-gemm_pending1.log", "gemm", {"": K(R + "gemm_2026-11-30/variants/gemm_pending1.cake")}),
    (R + "gemm_2026-11-30/run2-bench-gemm_drain.log", "gemm", {"": K(R + "gemm_2026-11-30/variants/gemm_drain.cake")}),
    (R + "gemm_2026-11-30/run2-bench-gemm_skip_first_lap.log", "gemm",
     {"": K(R + "gemm_2026-11-30/variants/gemm_skip_first_lap.cake")}),
    (R + "gemm_2026-11-30/run3/bench-gemm_bf16_sm90a.log", "gemm", {"": K(GEMM)}),
    (R + "gemm_2026-11-30/run3/bench-gemm_bf16_persistent_sm90a.log", "gemm", {"": K(PERS)}),
    (R + "gemm_2026-11-30/run3/bench-gemm_bf16_cluster_sm90a.log", "gemm", {"": K(CLU)}),
    # --- attention, 2026-11-30 (runs 1-5)
    (R + "attention_2026-11-30/run_stdout.txt", "attention",
     {"attention_fwd (non-causal)": K(ATT, note="then the first one-role schedule"),
      "attention_fwd_causal (causal)": K(ATT, "CAUSAL=True", note="then the first one-role schedule; causal from a sed copy (CAUSAL = True)")}),
    (R + "attention_2026-11-30/run2/run_stdout.txt", "attention",
     {"attention_fwd (non-causal)": K(ATT, note="then the one-role schedule"),
      "attention_fwd_causal (causal)": K(ATT, "CAUSAL=True", note="then the one-role schedule; causal from a sed copy (CAUSAL = True)")}),
    (R + "attention_2026-11-30/run3/run_stdout.txt", "attention",
     {"*": SKIP("pre-commit copies of the schedules committed in a62db0e; run 4 ran the committed files")}),
    (R + "attention_2026-11-30/run4/run_stdout.txt", "attention",
     {"attention_fwd (non-causal)": K(ATT), "attention_fwd_causal (causal)": K(ATT, "CAUSAL=True"),
      "attention_fwd (causal)": K(ATT, "CAUSAL=True"), "attention_fwd_simple (non-causal)": K(ATTS)}),
    (R + "attention_2026-11-30/run5/run_stdout.txt", "attention",
     {"attention_fwd (non-causal)": K(ATT), "attention_fwd_causal (causal)": K(ATT, "CAUSAL=True"),
      "attention_fwd (causal)": K(ATT, "CAUSAL=True"), "attention_fwd_simple (non-causal)": K(ATTS)}),
    # --- k-means, 2026-11-30
    (R + "kmeans_2026-11-30/run1_stdout.txt", "kmeans", {"": K(KM)}),
    (R + "kmeans_2026-11-30/run1_pingpong_stdout.txt", "kmeans",
     {"": K(R + "kmeans_2026-11-30/variants/kmeans_assign_pp_sm90a.cake")}),
    (R + "kmeans_2026-11-30/run1_bm256_stdout.txt", "kmeans", {"": SKIP("256-point variant: no .cake file kept")}),
    (R + "kmeans_2026-11-30/run2_partial_scans_stdout.txt", "kmeans", {"": SKIP("partial-scan variant: no .cake file kept")}),
    (R + "kmeans_2026-11-30/run2_pingpong_partial_scans_stdout.txt", "kmeans",
     {"": SKIP("ping-pong + partial-scan variant: no .cake file kept")}),
    (R + "kmeans_2026-11-30/run3_persistent_stdout.txt", "kmeans",
     {"": K(R + "kmeans_2026-11-30/variants/kmeans_assign_persistent_sm90a.cake")}),
    # --- 2026-12-01: sm_80 lowering on the H200
    (R + "gemm_sm80_2026-12-01/run_sm80.txt", "gemm", {"gemm_bf16_sm80: bench": K(SM80)}),
    (R + "gemm_sm80_2026-12-01/run_sm120a_as_sm90a.txt", "gemm", {"gemm_bf16_sm120a: bench": K(EX + "gemm_bf16_sm120a.cake")}),
    (R + "gemm_sm80_2026-12-01/run-merged-script.txt", "gemm",
     {"gemm_bf16_sm90a: bench": K(GEMM), "gemm_bf16_sm80: bench": K(SM80)}),
    # --- ragged shapes and decode (3737332)
    (R + "gemm_ragged_decode_2026-12-01/logs/bench-gemm_bf16_decode_s12_sm90a.log", "gemm", {"": K(DEC, "STAGES=12")}),
    (R + "gemm_ragged_decode_2026-12-01/logs/bench-gemm_bf16_decode_s14_sm90a.log", "gemm", {"": K(DEC, "STAGES=14")}),
    (R + "gemm_ragged_decode_2026-12-01/logs/bench-gemm_bf16_decode_k128_sm90a.log", "gemm", {"": K(DEC, "BK=128 STAGES=7")}),
    (R + "gemm_ragged_decode_2026-12-01/logs/bench-gemm_bf16_decode_k256_sm90a.log", "gemm", {"": K(DEC, "BK=256 STAGES=3")}),
    (R + "gemm_ragged_decode_2026-12-01/logs/bench-gemm_bf16_decode_rot_sm90a.log", "gemm",
     {"": SKIP("K walk rotated per block by an edit of the example, reverted (no .cake file)")}),
    (R + "gemm_ragged_decode_2026-12-01/logs/bench-gemm_bf16_decode_sm90a.log", "gemm", {"": K(DEC)}),
    (R + "gemm_ragged_decode_2026-12-01/logs/bench-gemm_bf16_decode128_sm90a.log", "gemm", {"": K(DEC, "BM=128 STAGES=8")}),
    (R + "gemm_ragged_decode_2026-12-01/logs/sweep.txt", "gemm", {"*": SKIP(DUP + " (bench-gemm_bf16_decode_s12/s14)")}),
    (R + "gemm_ragged_decode_2026-12-01/logs/sweep_bk.txt", "gemm", {"*": SKIP(DUP + " (bench-gemm_bf16_decode_k128/k256)")}),
    (R + "gemm_ragged_decode_2026-12-01/logs/sweep_rot.txt", "gemm", {"*": SKIP(DUP + " (bench-gemm_bf16_decode_rot)")}),
    (R + "gemm_ragged_decode_2026-12-01/logs/decode.txt", "gemm", {"*": SKIP(DUP + " (logs/bench-gemm_bf16_decode*)")}),
    (R + "gemm_ragged_decode_2026-12-01/logs/sweep_flush.txt", "gemm",
     {"": K(DEC)}),
    (R + "gemm_ragged_decode_2026-12-01/logs/bench-gemm_bf16_decode_flush.log", "gemm", {"*": SKIP(FLUSHREAD)}),
    (R + "gemm_ragged_decode_2026-12-01/final/bench-gemm_bf16_sm90a.log", "gemm", {"": K(GEMM)}),
    (R + "gemm_ragged_decode_2026-12-01/final/bench-gemm_bf16_decode_sm90a.log", "gemm", {"": K(DEC)}),
    (R + "gemm_ragged_decode_2026-12-01/final/bench-gemm_bf16_decode128_sm90a.log", "gemm", {"": K(DEC, "BM=128 STAGES=8")}),
    # --- core matrices (unswizzled operands)
    (R + "core_matrices_2026-12-01/bench-gemm_bf16_noswizzle_sm90a.log", "gemm", {"": K("bench/variants/gemm_bf16_noswizzle_sm90a.cake")}),
    (R + "core_matrices_2026-12-01/bench-gemm_bf16_bkn_sm90a.log", "gemm", {"": K("bench/variants/gemm_bf16_bkn_sm90a.cake")}),
    # --- pending=1
    (R + "gemm_pending1_2026-12-01/bench-gemm_bf16_sm90a.log", "gemm", {"": K(GEMM)}),
    (R + "gemm_pending1_2026-12-01/bench-gemm_bf16_pending1_sm90a.log", "gemm", {"": K("bench/variants/gemm_bf16_pending1_sm90a.cake")}),
    (R + "gemm_persistent_ragged_2026-12-01/bench-gemm_bf16_persistent_sm90a.log", "gemm", {"": K(PERS)}),
    # --- the family, first version (4568b84)
    (R + "gemm_family_2026-12-01/final/run.txt", "gemm", {"gemm_bf16_family_sm90a: bench": K(FAM)}),
    (R + "gemm_family_2026-12-01/final/bench-gemm_bf16_family_sm90a.log", "gemm", {"*": SKIP(DUP + " (final/run.txt)")}),
] + [
    (R + f"gemm_family_2026-12-01/sweep/bench-family_big{i}.log", "gemm",
     {"": K(R + "gemm_family_2026-12-01/family_sweep_sm90a.cake", f"BIG={i}")}) for i in range(4)
] + [
    # --- ping-pong (issue 19)
    (R + "gemm_pingpong_2026-12-01/unordered/bench-gemm_pp_128x128_s5.log", "gemm",
     {"*": SKIP("the unordered ping-pong the gate now rejects; ended in a launch failure")}),
    (R + "gemm_pingpong_2026-12-01/pending0/bench-gemm_pp_128x128_s5.log", "gemm", {"": K(PP, ref="8e9459f", note="the ordered form waiting each k-step (pending=0)")}),
    (R + "gemm_pingpong_2026-12-01/pending0/bench-gemm_pp_128x128_s4.log", "gemm", {"": K(PP, "STAGES=4", ref="8e9459f", note="the ordered form waiting each k-step (pending=0)")}),
    (R + "gemm_pingpong_2026-12-01/pending0/bench-gemm_pp_64x256_s4.log", "gemm", {"": K(PP, "BM=64 BN=256 STAGES=4", ref="8e9459f", note="the ordered form waiting each k-step (pending=0)")}),
    (R + "gemm_pingpong_2026-12-01/final/bench-gemm_pp_128x128_s5.log", "gemm", {"": K(PP)}),
    (R + "gemm_pingpong_2026-12-01/final/bench-gemm_pp_128x128_s4.log", "gemm", {"": K(PP, "STAGES=4")}),
    (R + "gemm_pingpong_2026-12-01/final/bench-gemm_pp_64x256_s4.log", "gemm", {"": K(PP, "BM=64 BN=256 STAGES=4")}),
    (R + "gemm_pingpong_2026-12-01/final/bench-gemm_tiled.log", "gemm", {"": K(GEMM)}),
    (R + "gemm_pingpong_2026-12-01/final/bench-gemm_persistent.log", "gemm", {"": K(PERS)}),
    (R + "gemm_pingpong_2026-12-01/cluster/bench-gemm_pp_128x128_s5.log", "gemm", {"": K(PP)}),
    (R + "gemm_pingpong_2026-12-01/cluster/bench-gemm_ppc_128x128_s5.log", "gemm", {"": K(PPC)}),
    (R + "gemm_pingpong_2026-12-01/cluster/bench-gemm_ppc_128x128_s4.log", "gemm", {"": K(PPC, "STAGES=4")}),
    (R + "gemm_pingpong_2026-12-01/cluster/bench-gemm_tiled.log", "gemm", {"": K(GEMM)}),
    (R + "gemm_pingpong_2026-12-01/sweep/bench-gemm_pp_128x128_s5.log", "gemm", {"": K(PP)}),
    (R + "gemm_pingpong_2026-12-01/sweep/bench-gemm_ppc_128x128_s5.log", "gemm", {"": K(PPC)}),
    (R + "gemm_pingpong_2026-12-01/sweep/bench-gemm_bf16_family_sm90a.log", "gemm", {"": K(FAM)}),
    (R + "gemm_pingpong_2026-12-01/tuning/bench-gemm_ppc_128x128_s5.log", "gemm", {"": K(PPC)}),
    (R + "gemm_pingpong_2026-12-01/tuning/bench-gemm_ppc_128x128_s5_g4.log", "gemm", {"": K(PPC, "GROUP_M=4")}),
    (R + "gemm_pingpong_2026-12-01/tuning/bench-gemm_ppc_128x128_s5_g16.log", "gemm", {"": K(PPC, "GROUP_M=16")}),
    (R + "gemm_pingpong_2026-12-01/tuning/bench-gemm_ppcs_128x128_s6.log", "gemm",
     {"": K(R + "gemm_pingpong_2026-12-01/variants/ppc_shared_c.cake")}),
    (R + "gemm_pingpong_2026-12-01/final_examples/bench-gemm_pp_128x128_s5.log", "gemm", {"": K(PP)}),
    (R + "gemm_pingpong_2026-12-01/final_examples/bench-gemm_ppc_128x128_s5.log", "gemm", {"": K(PPC)}),
    (R + "gemm_pingpong_2026-12-01/final_examples/final.txt", "gemm", {"*": SKIP(DUP + " (final_examples/bench-*)")}),
    (R + "gemm_pingpong_2026-12-01/cluster2x2/bench-gemm_ppc2x2.log", "gemm", {"": K(R + "gemm_pingpong_2026-12-01/variants/ppc2x2.cake")}),
] + [
    (R + f"gemm_pingpong_2026-12-01/cluster2x2/bench-gemm_ppc2x2_c{c}.log", "gemm",
     {"*": SKIP(f"/tmp copy of ppc2x2.cake with grid=(2*{c}, 2): no .cake file kept")}) for c in (28, 30, 32)
] + [
    # --- the family's routes (b28ae1c): sweeps, then the family runs
    (R + "gemm_family_routes_2026-12-01/logs/sweep1.txt", "gemm", {
        "dec56 FLOOR=1 SHAPES=*": K(DEC), "dec56 FLOOR=1 FLUSH=read *": SKIP(FLUSHREAD),
        "decclip*": SKIP(EDITED), "dec32 *": K(DEC, "BN=32 STAGES=16"),
        "small128 *": K(GEMM, "BN=128 STAGES=5"), "d64n64 *": K(DEC, "BN=64 STAGES=8"),
        "d64n128 *": K(DEC, "BN=128 STAGES=6"), "d64n256 *": K(DEC, "BN=256 STAGES=4"),
        "tiled *": K(GEMM), "persistent *": K(PERS)}),
    (R + "gemm_family_routes_2026-12-01/logs/sweep2.txt", "gemm", {
        "dec32clip*": SKIP(EDITED), "d128clip*": SKIP(EDITED), "d128 *": K(DEC, "BM=128 STAGES=8"),
        "tiled *": K(GEMM), "tiled_p128*": SKIP(EDITED + ": 128-byte L2 promotion"),
        "tiled_pnone*": SKIP(EDITED + ": no L2 promotion"), "small128 *": K(GEMM, "BN=128 STAGES=5")}),
    (R + "gemm_family_routes_2026-12-01/logs/sweep3.txt", "gemm", {
        "decclip*": SKIP(EDITED), "decp1clip*": SKIP(EDITED), "small128 *": K(GEMM, "BN=128 STAGES=5"),
        "small64 *": K(GEMM, "BN=64 STAGES=6"), "d64n64 *": K(DEC, "BN=64 STAGES=8"),
        "d64n64s4 *": K(DEC, "BN=64 STAGES=4"), "tiled_p128*": SKIP(EDITED + ": 128-byte L2 promotion"),
        "small128_p128*": SKIP(EDITED + ": 128-byte L2 promotion")}),
    (R + "gemm_family_routes_2026-12-01/logs/sweep4.txt", "gemm", {
        "ppc *": K(PPC), "ppc_p128*": SKIP(EDITED + ": 128-byte L2 promotion"), "tiled *": K(GEMM),
        "tiled_p128*": SKIP(EDITED + ": 128-byte L2 promotion"), "persistent *": K(PERS),
        "persistent_p128*": SKIP(EDITED + ": 128-byte L2 promotion")}),
    (R + "gemm_family_routes_2026-12-01/final/run_first.txt", "gemm", {"gemm_bf16_family_sm90a: bench": K(FAM, ref="b28ae1c")}),
    (R + "gemm_family_routes_2026-12-01/final/run_second.txt", "gemm", {"gemm_bf16_family_sm90a: bench": K(FAM, ref="b28ae1c")}),
    (R + "gemm_family_routes_2026-12-01/final/run.txt", "gemm", {"gemm_bf16_family_sm90a: bench": K(FAM)}),
    (R + "gemm_family_routes_2026-12-01/final/bench-gemm_bf16_family_sm90a.log", "gemm", {"*": SKIP(DUP + " (final/run.txt)")}),
    # --- stages, tiles, clusters for small shapes
    (R + "gemm_stages4_2026-12-01/final/run.txt", "gemm", {
        "tiled: bench": K(GEMM),
        "s4p0: bench": K(R + "gemm_stages4_2026-12-01/variants/gemm_bf16_stages4_sm90a.cake", "PENDING=0"),
        "s4p1: bench": K(R + "gemm_stages4_2026-12-01/variants/gemm_bf16_stages4_sm90a.cake", "PENDING=1")}),
    (R + "gemm_stages4_2026-12-01/final/run_small.txt", "gemm", {
        "small128: bench": K(GEMM, "BN=128 STAGES=5"),
        "n128s6p0: bench": K(R + "gemm_stages4_2026-12-01/variants/gemm_bf16_stages4_sm90a.cake", "BN=128 STAGES=6 PENDING=0"),
        "n128s6p1: bench": K(R + "gemm_stages4_2026-12-01/variants/gemm_bf16_stages4_sm90a.cake", "BN=128 STAGES=6 PENDING=1"),
        "n64s8p0: bench": K(R + "gemm_stages4_2026-12-01/variants/gemm_bf16_stages4_sm90a.cake", "BN=64 STAGES=8 PENDING=0"),
        "n64s8p1: bench": K(R + "gemm_stages4_2026-12-01/variants/gemm_bf16_stages4_sm90a.cake", "BN=64 STAGES=8 PENDING=1")}),
    (R + "gemm_persistent_tiles_2026-12-01/final/run.txt", "gemm", {
        "pers: bench": K(PERS), "pers_g4: bench": K(PERS, "GROUP_M=4"), "pers_g16: bench": K(PERS, "GROUP_M=16"),
        "pers_256x128: bench": K(PERS, "BM=256 BN=128")}),
    (R + "gemm_cluster_small_2026-12-01/final/run.txt", "gemm", {
        "small128: bench": K(GEMM, "BN=128 STAGES=5"), "cn64s8: bench": K(CLUN, "STAGES=8"),
        "cn64s4: bench": K(CLUN), "cn128s5: bench": K(CLUN, "BN=128 STAGES=5")}),
    # --- the persistent GEMM past cuBLAS (b902534): runs 1-8
] + [
    (R + f"gemm_pcc_2026-12-01/logs/run{r}/bench-{n}.log", "gemm", {"": spec})
    for r, n, spec in [
        (1, "pcc", K("bench/variants/gemm_bf16_pcc_sm90a.cake", when="2026-12-01T19:40:00")),
        (1, "pers", K(PERS, ref="b902534^", note="the example as of d5e5fed", when="2026-12-01T19:40:00")),
        (1, "ppc", K(PPC, when="2026-12-01T19:40:00")),
        (2, "pcc_nested", K("bench/variants/gemm_bf16_pcc_nested_sm90a.cake")),
        (2, "pers", K(PERS, ref="b902534^", note="the example as of d5e5fed")),
        (2, "pers_nested", K("bench/variants/gemm_bf16_pers_nested_sm90a.cake")),
        (2, "pers_nested_p1", K("bench/variants/gemm_bf16_pers_nested_p1_sm90a.cake")),
        (2, "ppc", K(PPC)),
        (3, "pcc_bal", K("bench/variants/gemm_bf16_pcc_bal_sm90a.cake")),
        (3, "pcc_nested", K("bench/variants/gemm_bf16_pcc_nested_sm90a.cake")),
        (3, "pcc_nested_p1", K("bench/variants/gemm_bf16_pcc_nested_p1_sm90a.cake")),
        (3, "pers_bal", K("bench/variants/gemm_bf16_pers_bal_sm90a.cake")),
        (3, "pers_nested", K("bench/variants/gemm_bf16_pers_nested_sm90a.cake")),
        (3, "ppc", K(PPC)),
        (4, "pcc4", K("bench/variants/gemm_bf16_pcc4_sm90a.cake")),
        (4, "pcc_bal", K("bench/variants/gemm_bf16_pcc_bal_sm90a.cake")),
        (4, "pers4", K("bench/variants/gemm_bf16_pers4_sm90a.cake")),
        (4, "pers_nested", K("bench/variants/gemm_bf16_pers_nested_sm90a.cake")),
        (5, "pcc4", K("bench/variants/gemm_bf16_pcc4_sm90a.cake")),
        (5, "pcc4_g16", K("bench/variants/gemm_bf16_pcc4_sm90a.cake", "GROUP_M=16")),
        (5, "pcc4_g4", K("bench/variants/gemm_bf16_pcc4_sm90a.cake", "GROUP_M=4")),
        (5, "pcc4_p1", K("bench/variants/gemm_bf16_pcc4_p1_sm90a.cake")),
        (5, "pers4_p1", K("bench/variants/gemm_bf16_pers4_p1_sm90a.cake")),
        (6, "pcc4", K("bench/variants/gemm_bf16_pcc4_sm90a.cake")),
        (6, "pcc4q", K("bench/variants/gemm_bf16_pcc4q_sm90a.cake")),
        (6, "pers4q", K("bench/variants/gemm_bf16_pers4q_sm90a.cake")),
        (8, "pcc4o", K(PCLU)),
        (8, "pcc4q", K("bench/variants/gemm_bf16_pcc4q_sm90a.cake")),
        (8, "pers4o", K(PERS)),
        (8, "pers4q", K("bench/variants/gemm_bf16_pers4q_sm90a.cake")),
    ]
] + [
    (R + f"gemm_pcc_2026-12-01/logs/run{r}/run{r}.txt", "gemm", {"*": SKIP(DUP + " (bench-*.log)")}) for r in (2, 4, 5, 6, 8)
] + [
    # --- the confirming runs (calls 1-5)
] + [
    (R + f"gemm_confirm_2026-12-01/logs/call{c}/{d}/bench-{n}.log", "gemm",
     {"": K(f, **({"ref": "e359a60^"} if c == 1 else {}), **({"mask": True} if c in (2, 4) else {}))})
    for c in (1, 2, 4, 5) for d, names in (("five", ("persistent", "persistent_cluster")),
                                            ("big", ("persistent", "persistent_cluster", "pingpong_cluster")))
    for n, f in ((x, {"persistent": PERS, "persistent_cluster": PCLU, "pingpong_cluster": PPC}[x]) for x in names)
] + [
    (R + f"gemm_confirm_2026-12-01/logs/call{c}/{d}/run.txt", "gemm", {"*": SKIP(DUP + " (bench-*.log)")})
    for c, d in ((1, "big"), (2, "big"), (2, "five"), (2, "old"), (4, "big"), (4, "five"), (5, "big"), (5, "five"))
] + [
    (R + "gemm_confirm_2026-12-01/logs/call5/confirm.txt", "gemm", {"*": SKIP(DUP + " (call 5's bench-*.log)")}),
    (R + "gemm_confirm_2026-12-01/logs/call2/old/bench-persistent_old.log", "gemm", {"": K(PERS, ref="e359a60^")}),
    (R + "gemm_confirm_2026-12-01/logs/call2/old/bench-persistent_cluster_old.log", "gemm", {"": K(PCLU, ref="e359a60^")}),
] + [
    (R + f"gemm_confirm_2026-12-01/logs/call2/family_pcc/{d}/bench-family_pcc.log", "gemm",
     {"*": SKIP("bench/variants/gemm_bf16_family_pcc_sm90a.cake, removed (it became the example family)")})
    for d in ("list", "more", "san")
] + [
    (R + f"gemm_confirm_2026-12-01/logs/call2/gemm_bf16_family_sm90a/{d}/bench-gemm_bf16_family_sm90a.log", "gemm",
     {"": K(FAM, ref="e359a60^", mask=True)}) for d in ("list", "more")
] + [
    (R + f"gemm_confirm_2026-12-01/logs/call{c}/family/{d}/bench-gemm_bf16_family_sm90a.log", "gemm",
     {"": K(FAM, **({"mask": True} if c in (3, 4) else {}))})
    for c in (3, 4, 5) for d in ("list", "cuts", "more", "big")
] + [
    # --- examples rerun (mask and shift; final code)
    (R + "examples_rerun_2026-12-01/logs/with_mask/gemm/bench-gemm_bf16_sm90a.log", "gemm", {"": K(GEMM, mask=True)}),
    (R + "examples_rerun_2026-12-01/logs/with_mask/gemm/bench-gemm_bf16_pingpong_sm90a.log", "gemm", {"": K(PP, mask=True)}),
    (R + "examples_rerun_2026-12-01/logs/with_mask/gemm/bench-gemm_bf16_cluster_sm90a.log", "gemm", {"": K(CLU, mask=True)}),
    (R + "examples_rerun_2026-12-01/logs/with_mask/gemm80/bench-gemm_bf16_sm80.log", "gemm", {"": K(SM80, mask=True)}),
    (R + "examples_rerun_2026-12-01/logs/with_mask/kmeans/bench-kmeans_assign_sm90a.log", "kmeans", {"": K(KM, mask=True)}),
    (R + "examples_rerun_2026-12-01/logs/with_mask/attention/attention_fwd_sm90a.log", "attention", {"attention_fwd (non-causal)": K(ATT, mask=True)}),
    (R + "examples_rerun_2026-12-01/logs/with_mask/attention/attention_fwd_causal_sm90a.log", "attention", {"attention_fwd (causal)": K(ATT, "CAUSAL=True", mask=True)}),
    (R + "examples_rerun_2026-12-01/logs/with_mask/attention/attention_fwd_simple_sm90a.log", "attention", {"attention_fwd_simple (non-causal)": K(ATTS, mask=True)}),
    (R + "examples_rerun_2026-12-01/logs/ab1", "dir", {"*": SKIP("A/B of lowerings (old cakec d5e5fed, mask and shift, hand-edited); superseded by logs/final")}),
    (R + "examples_rerun_2026-12-01/logs/ab2", "dir", {"*": SKIP("A/B of lowerings (old cakec d5e5fed, mask and shift, hand-edited); superseded by logs/final")}),
    (R + "examples_rerun_2026-12-01/logs/final/gemm/bench-gemm_bf16_sm90a.log", "gemm", {"": K(GEMM)}),
    (R + "examples_rerun_2026-12-01/logs/final/gemm/bench-gemm_bf16_pingpong_sm90a.log", "gemm", {"": K(PP)}),
    (R + "examples_rerun_2026-12-01/logs/final/gemm/bench-gemm_bf16_cluster_sm90a.log", "gemm", {"": K(CLU)}),
    (R + "examples_rerun_2026-12-01/logs/final/gemm80/bench-gemm_bf16_sm80.log", "gemm", {"": K(SM80)}),
    (R + "examples_rerun_2026-12-01/logs/final/rerun.txt", "gemm", {"*": SKIP(DUP + " (logs/final/*/bench-*.log)")}),
    (R + "examples_rerun_2026-12-01/logs/final/kmeans/bench-kmeans_assign_sm90a.log", "kmeans", {"": K(KM)}),
    (R + "examples_rerun_2026-12-01/logs/final/attention/attention_fwd_sm90a.log", "attention", {"attention_fwd (non-causal)": K(ATT)}),
    (R + "examples_rerun_2026-12-01/logs/final/attention/attention_fwd_causal_sm90a.log", "attention", {"attention_fwd (causal)": K(ATT, "CAUSAL=True")}),
    (R + "examples_rerun_2026-12-01/logs/final/attention/attention_fwd_simple_sm90a.log", "attention", {"attention_fwd_simple (non-causal)": K(ATTS)}),
    # --- 2026-12-02: hardening (two calls), issue 32, issue 34
    (R + "hardening_2026-12-02/logs/attention/attention_fwd_sm90a.log", "attention", {"attention_fwd (non-causal)": K(ATT)}),
    (R + "hardening_2026-12-02/logs/attention/attention_fwd_causal_sm90a.log", "attention", {"attention_fwd (causal)": K(ATT, "CAUSAL=True")}),
    (R + "hardening_2026-12-02/logs/attention/attention_fwd_simple_sm90a.log", "attention", {"attention_fwd_simple (non-causal)": K(ATTS)}),
    (R + "hardening_2026-12-02/logs/call2_run.txt", "gemm", RUN_GEMMS),
    (R + "hardening_2026-12-02/logs/call2_run.txt", "attention", RUN_ATTENTION),
    (R + "hardening_2026-12-02/logs/call2_run.txt", "kmeans", {"": K(KM)}),
    (R + "issue32_2026-12-02/logs/attention_summary.txt", "attention", RUN_ATTENTION),
    (R + "issue34_2026-12-02/logs/run.log", "gemm", RUN_GEMMS),
    (R + "issue34_2026-12-02/logs/run.log", "attention", RUN_ATTENTION),
    (R + "issue34_2026-12-02/logs/run.log", "kmeans", {"": K(KM)}),
    (R + "issue34_2026-12-02b/logs/bench-epilogue_by_loader.log", "gemm",
     {"": K("testsuite/namedbarrier/pass_epilogue_store_role.cake", note="64x64-tile correctness vehicle (testsuite)")}),
    (R + "issue34_2026-12-02b/logs/run.log", "gemm", {"*": SKIP(DUP + " (logs/bench-epilogue_by_loader.log)")}),
    # --- issue 35: fused epilogues, row kernels
    (R + "issue35_2026-12-02/bench.log", "epilogue", {
        "gemm_epi_silu_bf16_1": K(EX + "gemm_bf16_epilogue_sm90a.cake", "ACT=3"),
        "gemm_epi_gelu_f32_1": K(EX + "gemm_bf16_epilogue_sm90a.cake", "ACT=2 BIAS_F32=True"),
        "gemm_epi_relu_bf16_0": K(EX + "gemm_bf16_epilogue_sm90a.cake", "ACT=1 RESIDUAL=False"),
        "gemm_epi_none_bf16_1": K(EX + "gemm_bf16_epilogue_sm90a.cake", "ACT=0")}),
    (R + "issue35_2026-12-02/rows/bench.log", "rows", {
        "rmsnorm_4096": K(EX + "rmsnorm_sm90a.cake", "N=4096"), "softmax_4096": K(EX + "softmax_sm90a.cake", "N=4096"),
        "rmsnorm_2048": K(EX + "rmsnorm_sm90a.cake", "N=2048"), "softmax_2048": K(EX + "softmax_sm90a.cake", "N=2048")}),
] + [
    (R + f"issue35_2026-12-02/{d}/bench.log", "rows", {
        "rmsnorm_4096_4": K(EX + "rmsnorm_sm90a.cake", "N=4096"), "softmax_4096_4": K(EX + "softmax_sm90a.cake", "N=4096"),
        "rmsnorm_2048_4": K(EX + "rmsnorm_sm90a.cake", "N=2048"), "softmax_2048_4": K(EX + "softmax_sm90a.cake", "N=2048"),
        "rmsnorm_8192_2": K(EX + "rmsnorm_sm90a.cake", "N=8192 SPLIT=2"),
        "softmax_8192_2": K(EX + "softmax_sm90a.cake", "N=8192 SPLIT=2"),
        "softmax_32768_1": K(EX + "softmax_sm90a.cake", "N=32768 WARPS=8 SPLIT=8")}) for d in ("rows2", "rows3")
] + [
    # --- issue 36: split-K, the family's split-K routes
    (R + "issue36_2026-12-03/bench-splitk16.log", "gemm", {"": K(SPLITK)}),
    (R + "issue36_2026-12-03/bench-splitk4.log", "gemm", {"": K(SPLITK, "SPLIT=4")}),
    (R + "issue36_2026-12-03/family_underfilled.log", "gemm", {"": K(FAM, ref="37ddf63^", note="the family before split-K")}),
    (R + "issue36_2026-12-03/family_sk_underfilled.log", "gemm", {"": K(FAM)}),
    (R + "issue36_2026-12-03/decode_family_vs_splitk.log", "gemm", {"*": SKIP(FLUSHREAD)}),
    (R + "issue36_2026-12-03/family_committed_final.log", "gemm", {
        "family_sk, under-filled list": K(FAM), "family_sk, decode shapes*": SKIP(FLUSHREAD),
        "splitk16 launcher checks, ragged shapes": K(SPLITK)}),
    # --- issue 37: fp8
    (R + "issue37_2026-12-03/run1/bench.log", "fp8", {
        "gemm_fp8_e4m3": K(FP8), "gemm_fp8_e5m2": K(FP8, "B_E5M2=True"), "gemm_fp8_inflight_e4m3": K(FP8, "INFLIGHT=True"),
        "gemm_fp8_n128_e4m3": K(FP8, "BN=128 STAGES=6 INFLIGHT=True"),
        "gemm_fp8_promote_e4m3": K(FP8, "BN=128 STAGES=6 PROMOTE=True"),
        "gemm_fp8_rowwise_e4m3": K(FP8R, ref="2aa5e57^", note="the first row-wise schedule (one tile per block)"),
        "gemm_fp8_rowwise_inflight_e4m3": K(FP8R, "INFLIGHT=True", ref="2aa5e57^", note="the first row-wise schedule (one tile per block)"),
        "sm89_gemm_e4m3": K("testsuite/codegen/Inputs/gemm_e4m3_sm89.cake", "BM=128 STAGES=3",
                            note="mma.sync, --target=sm_89, compute_89 PTX on the H200")}),
    (R + "issue37_2026-12-03/run2/bench.log", "fp8", {
        "gemm_fp8_e4m3": K(FP8), "gemm_fp8_e5m2": K(FP8, "B_E5M2=True"), "gemm_fp8_inflight_e4m3": K(FP8, "INFLIGHT=True"),
        "gemm_fp8_n128_e4m3": K(FP8, "BN=128 STAGES=6 INFLIGHT=True"),
        "gemm_fp8_promote_e4m3": K(FP8, "BN=128 STAGES=6 PROMOTE=True"),
        "gemm_fp8_rowwise_e4m3": K(FP8R),
        "sm89_gemm_e4m3": K("testsuite/codegen/Inputs/gemm_e4m3_sm89.cake", "BM=128 STAGES=3",
                            note="mma.sync, --target=sm_89, compute_89 PTX on the H200")}),
    (R + "issue37_2026-12-03/run3/bench.log", "fp8", {
        "gemm_fp8_e4m3": K(FP8), "gemm_fp8_rowwise_e4m3": SKIP("intermediate row-wise schedule (SB staged, SA from global), never committed")}),
    (R + "issue37_2026-12-03/run4/bench.log", "fp8", {"gemm_fp8_e4m3": K(FP8), "gemm_fp8_rowwise_e4m3": K(FP8R)}),
    (R + "issue37_2026-12-03/run5/bench.log", "fp8", {
        "gemm_fp8_e4m3": K(FP8),
        "gemm_fp8_promote1_e4m3": K(FP8, "BN=128 STAGES=6 PROMOTE=True PROMOTE_EVERY=1"),
        "gemm_fp8_promote2_e4m3": K(FP8, "BN=128 STAGES=6 PROMOTE=True PROMOTE_EVERY=2"),
        "gemm_fp8_promote4_e4m3": K(FP8, "BN=128 STAGES=6 PROMOTE=True PROMOTE_EVERY=4")}),
    # --- issue 38: plain builds only
    (R + "issue38_2026-12-03/run1/cost.log", "gemm", {
        "gemm_plain": K(GEMM), "persistent_plain": K(PERS),
        "gemm_checked": SKIP("-fcheck-waits build"), "persistent_checked": SKIP("-fcheck-waits build")}),
    (R + "issue38_2026-12-03/run1/attention.log", "attention", {
        "attention_fwd (non-causal)": K(ATT), "attention_fwd_checked (non-causal)": SKIP("-fcheck-waits build")}),
    # --- 2026-12-04
    (R + "gather_2026-12-04/before_review/gather.log", "gather", {"": K(EX + "gather_rows_sm90a.cake")}),
    (R + "gather_2026-12-04/gather.log", "gather", {"": K(EX + "gather_rows_sm90a.cake")}),
    (R + "gather_2026-12-04/after_cleanup/gather.log", "gather", {"": K(EX + "gather_rows_sm90a.cake")}),
    (R + "splitk_reduce_2026-12-04/sk/bench-splitk16.log", "gemm", {"": K(SPLITK)}),
    (R + "splitk_reduce_2026-12-04/sk/bench-splitk16_red.log", "gemm", {"": K(SPLITK, "REDUCE=True")}),
    (R + "splitk_reduce_2026-12-04/fam/bench-family_sk.log", "gemm", {"": K(FAM, ref="26f0c1d^", note="the family before the TMA-addition route")}),
    (R + "splitk_reduce_2026-12-04/fam/bench-family_red.log", "gemm",
     {"*": SKIP("sed copy of the family (every split-K route on REDUCE=True), not kept")}),
    (R + "splitk_reduce_2026-12-04/final/bench-family_sk.log", "gemm", {"": K(FAM)}),
    (R + "splitk_reduce_2026-12-04/final/bench-family_nondet.log", "gemm", {"": K(FAM, "DETERMINISTIC=False")}),
    (R + "splitk_reduce_2026-12-04/final/bench-splitk16_red.log", "gemm", {"": K(SPLITK, "REDUCE=True")}),
    (R + "splitk_reduce_2026-12-04/run.log", "gemm", {"*": SKIP(DUP + " (sk/, fam/)")}),
    (R + "splitk_reduce_2026-12-04/final.log", "gemm", {"*": SKIP(DUP + " (final/)")}),
    (R + "fp8_blockscaled_2026-12-04/bench.log", "fp8", {
        "gemm_fp8_blockscaled_e4m3": K(EX + "gemm_fp8_blockscaled_sm90a.cake", "PRODUCTS=1"),
        "gemm_fp8_promote1_e4m3": K(FP8, "BN=128 STAGES=6 PROMOTE=True PROMOTE_EVERY=1"),
        "gemm_fp8_rowwise_e4m3": K(FP8R)}),
    (R + "decode_gqa_2026-12-04/decode.log", "decode", {"": K(EX + "attention_decode_gqa_sm90a.cake")}),
]

# Codegen changes after which a run's lowering differs in a way a commit message (or the
# README it cites) ties to speed: (kinds, in use from (UTC; the runs that first used
# it often ran before its commit), text).
LOWERING = [
    ({"attention"}, "2026-12-01T00:05:00", "a62db0e ex2.approx.ftz, 4-chain row reductions"),
    ({"gemm"}, "2026-12-01T17:45:00", "b28ae1c box cuts + 128B L2 promotion off 256B rows (family 0.873->0.956)"),
    ({"gemm"}, "2026-12-01T18:05:00", "43bc3c6 cut zeroing only where a box is cut"),
    ({"gemm"}, "2026-12-01T19:50:00", "f1e6881 wgmma descriptors once per tile"),
]
MASK_NOTE = "ran with the ring mask/shift lowering (e359a60; taken back in 432d759, GEMMs no faster with it)"

# ----------------------------------------------------------------------------


def match_section(mapping, key):
    if key in mapping:
        return mapping[key]
    for pat, spec in mapping.items():
        if pat != "*" and "*" in pat and re.fullmatch(re.escape(pat).replace(r"\*", ".*"), key):
            return spec
    return mapping.get("*")


def shape_str(shape):
    return ",".join(f"{k}={v}" for k, v in shape.items())


def defines_dict(defines):
    return dict(d.split("=", 1) for d in defines.split()) if defines else {}


def kind_of(kfile, parser):
    if parser in ("attention", "kmeans", "rows", "decode", "gather"):
        return "attention" if parser in ("attention", "decode") else parser
    return "gemm"


def nearby_stamp(log, commit_iso):
    """When a log without a timestamp ran: the latest '== <ISO time>' line, no later than the log's
    commit, in the files of its directory, then of the directories above it within its topic."""
    limit = commit_iso[:19]
    d = os.path.dirname(os.path.join(REPO, log))
    top = os.path.join(REPO, "bench/results")
    while True:
        found = []
        for root, _, files in os.walk(d):
            for f in files:
                try:
                    for ln in open(os.path.join(root, f), errors="replace"):
                        m = STAMP.search(ln) if ln.startswith("==") else None
                        if m and m.group(1) + "T" + m.group(2) <= limit:
                            found.append(m.group(1) + "T" + m.group(2))
                except OSError:
                    pass
        if found:
            return max(found)
        if os.path.dirname(d) == top or d == top:
            return None
        d = os.path.dirname(d)


def collect(skipped):
    recs, order = [], 0
    for src in SOURCES:
        log, parser, mapping = src
        if parser == "dir":
            skipped.append((log + "/*", "*", mapping["*"].why))
            continue
        path = os.path.join(REPO, log)
        text = open(path, errors="replace").read()
        sha, cdate = log_commit(log)
        m = re.search(r"_(\d{4}-\d\d-\d\d)", log)
        dir_date = m.group(1) if m else cdate[:10]
        file_stamp = STAMP.search(text)
        seen_skip = set()
        for key, shape, ours, peer, extra in PARSERS[parser](text):
            order += 1
            spec = match_section(mapping, key)
            where = f"{log} [{key or '-'}] {shape_str(shape)}"
            if spec is None:
                skipped.append((log, key, "no mapping for this section (parser saw it)"))
                continue
            if isinstance(spec, SKIP):
                if key not in seen_skip:
                    skipped.append((log, key or "-", spec.why))
                    seen_skip.add(key)
                continue
            if extra.get("wrong"):
                skipped.append((log, f"{key or '-'} {shape_str(shape)}", "WRONG / not timed"))
                continue
            if extra.get("flush") == "read":
                if (log, key, "flush") not in seen_skip:
                    skipped.append((log, key or "-", FLUSHREAD))
                    seen_skip.add((log, key, "flush"))
                continue
            stamp = extra.get("stamp") or (file_stamp and file_stamp.group(1) + " " + file_stamp.group(2))
            near = None if stamp else nearby_stamp(log, cdate)
            when = spec.get("when") or (stamp.replace(" ", "T") if stamp else near or cdate[:19])
            date = stamp[:10] if stamp else (near[:10] if near else dir_date)
            recs.append(dict(kernel_file=spec["kfile"], defines=spec["defines"], shape=shape, ours=ours, peer=peer,
                             date=date, source_log=log, log_sha=sha, log_date=cdate, stamp=stamp or "",
                             when=when, mask=spec.get("mask", False),
                             order=order, ref=spec.get("ref"), spec_note=spec.get("note", ""),
                             kind=kind_of(spec["kfile"], parser), parser=parser, route_logged=extra.get("route"),
                             where=where))
    return recs


def resolve_ref(rec):
    ref = rec["ref"] or rec["log_sha"]
    ref = rev(ref)
    kf = rec["kernel_file"]
    moved = None
    if show(ref, kf) is None:
        later = first_version_after(ref, kf)
        if later:
            moved = later
            ref = later
    return ref, moved


@functools.lru_cache(maxsize=None)
def is_family(kfile):
    try:
        return "@cake.family" in open(os.path.join(REPO, kfile)).read()
    except OSError:
        return False


def version_of(rec, ref):
    """(version key, description pieces) of the schedule a record timed."""
    kf = rec["kernel_file"]
    if is_family(kf):
        text = show(ref, kf)
        shape = rec["shape"]
        alias, target = family_route(text, defines_dict(rec["defines"]), shape)
        if target is None:
            return ("family-no-route", alias), alias, None
        mod, consts = target
        mfile = EX + mod + ".cake"
        return ("route", mod, consts, version_key(mfile, ref)), alias, (mfile, consts)
    return ("file", version_key(kf, ref)), None, None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--output", default=os.path.join(REPO, "bench/costmodel/history.csv"))
    ap.add_argument("--no-verify", action="store_true")
    args = ap.parse_args()
    skipped = []
    recs = collect(skipped)
    head = rev("HEAD")

    for r in recs:
        ref, moved = resolve_ref(r)
        r["ref_sha"] = ref
        r["moved"] = moved
        # a -D that restates the file's own value (STAGES=14 where STAGES = 14) builds the default
        # kernel: such runs are grouped with the default's (the row keeps the defines it ran with)
        text = show(ref, r["kernel_file"]) or ""
        kept = []
        for d in r["defines"].split():
            name, val = d.split("=", 1)
            m = re.search(rf"^{name}\s*=\s*([^\s#]+)", text, re.M)
            if not (m and m.group(1) == val):
                kept.append(d)
        r["defines_norm"] = " ".join(kept)
        r["vkey"], r["route_then"], r["route_target"] = version_of(r, ref)
        r["vkey_head"], r["route_now"], _ = version_of(r, head)

    # the latest run of each (kernel, defines, shape, version)
    groups = collections.defaultdict(list)
    for r in recs:
        groups[(r["kernel_file"], r["defines_norm"], shape_str(r["shape"]), repr(r["vkey"]))].append(r)
    chosen = []
    for g in groups.values():
        g.sort(key=lambda r: (r["log_date"], r["when"], r["order"]))
        chosen.append(g[-1])

    for r in chosen:
        notes = []
        if r["spec_note"]:
            notes.append(r["spec_note"])
        if r["moved"]:
            notes.append(f"file committed after the run ({r['moved'][:7]})")
        if r["ref"]:
            notes.append(f"version at {r['ref']}")
        kf = r["kernel_file"]
        cur = r["vkey"] == r["vkey_head"]
        r["unchanged"] = "yes" if cur else "no"
        if is_family(kf):
            if (r["route_logged"] and r["route_then"] and r["route_logged"] != r["route_then"]
                    and not r["route_logged"].startswith(r["route_then"] + "_")):
                print(f"history.py: {r['where']}: the log names route {r['route_logged']}, the family file at "
                      f"{r['ref_sha'][:7]} gives {r['route_then']}", file=sys.stderr)
            if r["route_then"] and r["route_now"] and r["route_then"] != r["route_now"]:
                notes.append(f"route {r['route_then']} then, {r['route_now']} now")
            elif not cur and r["route_target"]:
                mfile = r["route_target"][0]
                ch = changes_between(mfile, r["ref_sha"])
                notes.append(f"route {r['route_then']}: {os.path.basename(mfile)} changed: " +
                             "; ".join(label(*c) for c in ch))
            elif cur and changes_between(kf, r["ref_sha"]):
                notes.append(f"route {r['route_then']} and its schedule unchanged (family edited since)")
        elif not cur:
            ch = changes_between(kf, r["ref_sha"])
            notes.append("changed: " + "; ".join(label(*c) for c in ch) if ch else "changed")
        # lowering changes after the run
        if r["mask"]:
            notes.append(MASK_NOTE)
        low = [text for kinds, since, text in LOWERING if r["kind"] in kinds and r["when"] < since]
        if low:
            notes.append("lowering changed since the run: " + ", ".join(low))
        r["note"] = "; ".join(notes)

    # verify every row with the cost report
    def verify(r):
        cmd = [CAKEC, "--report", "--report-format=json", os.path.join(REPO, r["kernel_file"])]
        cmd += [f"-D{d}" for d in r["defines"].split()]
        cmd += ["--shape", shape_str(r["shape"])]
        p = subprocess.run(cmd, capture_output=True, text=True, cwd=REPO)
        if p.returncode != 0:
            return f"exit {p.returncode}: " + (p.stderr.strip().splitlines() or ["?"])[0][:300]
        try:
            rep = json.loads(p.stdout)["reports"]
        except Exception as e:
            return f"unreadable report: {e}"
        if not rep:
            return "no report"
        bad = [x for x in rep if not x.get("estimated")]
        if bad:
            return "not estimated: " + "; ".join(x.get("why", "?") for x in bad)
        if kf_is_family(r):
            rt = rep[0].get("route")
            if r["route_now"] and rt and rt != r["route_now"] and not rt.startswith(r["route_now"] + "_"):
                return f"route mismatch: report {rt}, family file {r['route_now']}"
        return None

    def kf_is_family(r):
        return is_family(r["kernel_file"])

    failed = []
    if not args.no_verify:
        with ThreadPoolExecutor(max_workers=16) as ex:
            res = list(ex.map(verify, chosen))
        keep = []
        for r, err in zip(chosen, res):
            if err:
                failed.append((r, err))
            else:
                keep.append(r)
        chosen = keep

    chosen.sort(key=lambda r: (r["kernel_file"], r["defines"], [v for v in r["shape"].values()], r["log_date"]))
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(COLUMNS)
    for r in chosen:
        w.writerow([r["kernel_file"], r["defines"], shape_str(r["shape"]), fmt(r["ours"]), fmt(r["peer"]),
                    r["date"], r["source_log"], r["unchanged"], r["note"]])
    with open(args.output, "w") as f:
        f.write(buf.getvalue())

    # report
    print(f"history.py: {len(recs)} timed rows read, {len(chosen)} written "
          f"({sum(r['unchanged'] == 'yes' for r in chosen)} unchanged_since=yes) -> {os.path.relpath(args.output)}",
          file=sys.stderr)
    for log, key, why in skipped:
        print(f"  skipped: {log} [{key}]: {why}", file=sys.stderr)
    for r, err in failed:
        print(f"  left out (cakec --report): {r['kernel_file']} {r['defines']} {shape_str(r['shape'])} "
              f"({r['source_log']}): {err}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
