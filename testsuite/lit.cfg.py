# lit configuration for cakec's test suite.
#
# Tests are .cake files (and a few .test scripts) with `# RUN:` lines.
# Substitutions: %cakec (the compiler under test), FileCheck, not, count from
# llvm-14-tools, %python.
import os
import sys

import lit.formats

config.name = "cakec"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".cake", ".test"]
config.excludes = ["Inputs", "unit", "build_external.sh", "lit.cfg.py", "lit.site.cfg.py.in", "expect_exit.py",
                   "check_diagnostic_coverage.py", "check_man_options.py", "check_sarif.py", "check_editor_formats.py"]
config.test_source_root = os.path.join(config.cakec_src_root, "testsuite")
config.test_exec_root = os.path.join(config.cakec_obj_root, "testsuite")

config.substitutions.append(("%cakec", config.cakec_bin))
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%srcroot", config.cakec_src_root))
config.substitutions.append(("%objroot", config.cakec_obj_root))
# %expect-exit N CMD: CMD must exit with exactly status N.
config.substitutions.append(("%expect-exit", sys.executable + " " +
                             os.path.join(config.cakec_src_root, "testsuite", "expect_exit.py")))
config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, os.path.dirname(config.cakec_bin), config.environment.get("PATH", "")])
# Diagnostics must not depend on the caller's terminal or locale.
config.environment["NO_COLOR"] = "1"
for var in ["CAKEC_DIAGNOSTIC_LOG", "ASAN_OPTIONS", "UBSAN_OPTIONS", "HOME"]:
    if var in os.environ:
        config.environment[var] = os.environ[var]

if getattr(config, "cakec_sanitize", False):
    config.available_features.add("asan")

# The SARIF 2.1.0 schema ships in the workspace's shared/data beside the
# checkout (CI lays a copy there); tests that validate against it need it.
sarif_schema = os.path.join(config.cakec_src_root, "..", "shared", "data", "sarif-schema-2.1.0.json")
if os.path.exists(sarif_schema):
    config.available_features.add("sarif-schema")
config.substitutions.append(("%sarif_schema", sarif_schema))

# The CUDA toolkit assembles generated code for its target (CI has no GPU).
# The style check uses clang-format 14 (scripts/install-deps.sh installs it).
clang_format = "/usr/lib/llvm-14/bin/clang-format"
if os.path.exists(clang_format):
    config.available_features.add("clang-format")
config.substitutions.append(("%clang-format", clang_format))

# Missing nvcc fails the run rather than skipping those tests silently, unless
# CAKEC_ALLOW_NO_NVCC=1 says a machine without CUDA is meant.
cuda_home = os.environ.get("CUDA_HOME", "/usr/local/cuda")
nvcc = os.path.join(cuda_home, "bin", "nvcc")
if os.path.exists(nvcc):
    config.available_features.add("nvcc")
elif os.environ.get("CAKEC_ALLOW_NO_NVCC") != "1":
    lit_config.fatal("nvcc not found at %s: install the CUDA toolkit, set CUDA_HOME, or set "
                     "CAKEC_ALLOW_NO_NVCC=1 to skip the tests that assemble generated CUDA" % nvcc)
# nvcc without a target (tests name each exact target); before %nvcc, its prefix.
config.substitutions.append(("%nvcc_path", nvcc))  # the bare path (before %nvcc, its prefix)
config.substitutions.append(("%nvcc_any", nvcc + " -std=c++17"))
config.substitutions.append(("%nvcc", nvcc + " -gencode=arch=compute_90a,code=sm_90a -std=c++17"))
for var in ["CUDA_HOME", "CAKEC_ALLOW_NO_NVCC"]:
    if var in os.environ:
        config.environment[var] = os.environ[var]
