// libFuzzer target with a structure-aware mutator: starting from real
// schedules (examples/, testsuite/), it edits whole lines and tokens
// (numbers, names, keyword arguments, operation calls) so most inputs parse
// and reach semantic analysis, every gate, the IR printer and, where the
// gates pass on a target with a lowering, codegen
// (the .cu and the launcher header).
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "FuzzInput.h"
#include "codegen/Codegen.h"
#include "passes/Passes.h"
#include "sema/Sema.h"

extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t maxSize);

namespace {

std::vector<std::string> splitLines(const std::string &s) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start <= s.size()) {
    size_t nl = s.find('\n', start);
    if (nl == std::string::npos) {
      lines.push_back(s.substr(start));
      break;
    }
    lines.push_back(s.substr(start, nl - start));
    start = nl + 1;
  }
  return lines;
}

std::string joinLines(const std::vector<std::string> &lines) {
  std::string out;
  for (size_t i = 0; i < lines.size(); ++i) out += lines[i] + (i + 1 < lines.size() ? "\n" : "");
  return out;
}

// Fragments a schedule is made of; inserted and swapped in by the mutator.
const char *const kFragments[] = {
    "    lm.wait(full, stage=k)",
    "    lm.arrive(empty, stage=k)",
    "    lm.fence_proxy()",
    "    lm.role_sync()",
    "    lm.mma_commit()",
    "    lm.mma_wait(pending=0)",
    "    lm.tma_store_wait()",
    "    x = lm.smem(4096)",
    "    r = lm.role(warps=[0])",
    "    p = lm.pipeline(stages=2)",
    "    with load:",
    "    with math:",
    "        for k in lm.range(0, K // 64):",
    "    v = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, stage=2)",
    "    b = lm.barrier(count=2, prod=[load], cons=[math])",
    "    lm.commit(empty, stage=0)",
    "    acc = lm.tmem(cols=0, width=128, shape=(128, 128), dtype=lm.f32)",
    "    if k == 0:",
    "    else:",
    "    pass",
};
const char *const kNumbers[] = {"0",   "1",   "2",    "3",  "4",     "7",      "8",
                                "16",  "31",  "32",   "64", "128",   "255",    "256",
                                "257", "512", "1024", "-1", "65536", "232448", "9223372036854775807"};

std::string mutateText(const std::string &in, std::mt19937 &rng) {
  std::vector<std::string> lines = splitLines(in);
  if (lines.empty()) lines.push_back("");
  auto pick = [&](size_t n) { return static_cast<size_t>(rng() % (n ? n : 1)); };
  size_t i = pick(lines.size());
  switch (rng() % 8) {
  case 0:  // delete a line
    if (lines.size() > 1) lines.erase(lines.begin() + static_cast<long>(i));
    break;
  case 1:  // duplicate a line
    lines.insert(lines.begin() + static_cast<long>(i), lines[i]);
    break;
  case 2: {  // swap two lines
    size_t j = pick(lines.size());
    std::swap(lines[i], lines[j]);
    break;
  }
  case 3: {  // insert a fragment, indented like its neighbour
    std::string frag = kFragments[pick(sizeof kFragments / sizeof *kFragments)];
    size_t indent = lines[i].find_first_not_of(' ');
    if (indent == std::string::npos) indent = 0;
    lines.insert(lines.begin() + static_cast<long>(i), std::string(indent > 4 ? indent - 4 : 0, ' ') + frag);
    break;
  }
  case 4: {  // replace a number
    std::string &l = lines[i];
    size_t p = l.find_first_of("0123456789");
    if (p == std::string::npos) break;
    size_t e = l.find_first_not_of("0123456789_", p);
    l.replace(p, (e == std::string::npos ? l.size() : e) - p, kNumbers[pick(sizeof kNumbers / sizeof *kNumbers)]);
    break;
  }
  case 5: {  // replace a name with another name from the text
    std::vector<std::string> names;
    std::string cur;
    for (char c : in) {
      if (std::isalnum(static_cast<unsigned char>(c)) || c == '_')
        cur += c;
      else {
        if (!cur.empty() && !std::isdigit(static_cast<unsigned char>(cur[0]))) names.push_back(cur);
        cur.clear();
      }
    }
    if (names.empty()) break;
    std::string &l = lines[i];
    size_t p = l.find_first_of("abcdefghijklmnopqrstuvwxyz_");
    if (p == std::string::npos) break;
    size_t e = l.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_", p);
    l.replace(p, (e == std::string::npos ? l.size() : e) - p, names[pick(names.size())]);
    break;
  }
  case 6: {  // change indentation
    std::string &l = lines[i];
    if (rng() % 2)
      l = "    " + l;
    else if (l.rfind("    ", 0) == 0)
      l.erase(0, 4);
    break;
  }
  default: {  // drop a keyword argument or an argument
    std::string &l = lines[i];
    size_t c = l.find(", ");
    if (c == std::string::npos) break;
    size_t e = l.find_first_of(",)", c + 2);
    if (e != std::string::npos) l.erase(c, e - c);
    break;
  }
  }
  return joinLines(lines);
}

}  // namespace

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t maxSize, unsigned int seed) {
  std::mt19937 rng(seed);
  if (rng() % 8 == 0) return LLVMFuzzerMutate(data, size, maxSize);
  std::string out = mutateText(std::string(reinterpret_cast<const char *>(data), size), rng);
  if (out.size() > maxSize) out.resize(maxSize);
  std::copy(out.begin(), out.end(), data);
  return out.size();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  cake::SourceManager sm;
  cake::DiagnosticEngine diags;
  std::optional<cake::FileId> file = cake::fuzz::admitInput(data, size, sm, diags);
  if (!file) return 0;
  std::unique_ptr<cake::ast::Module> module = cake::parseFile(sm, *file, diags);
  if (!module) return 0;
  // Every target: the gates differ per target.
  for (const cake::TargetInfo &t : cake::allTargets()) {
    cake::DiagnosticEngine d;
    std::unique_ptr<cake::sema::Module> ir = cake::sema::analyze(*module, t.target, sm, d);
    if (!ir || d.hasErrors()) continue;
    cake::analysis::ModuleFacts facts = cake::analysis::analyzeModule(*ir, sm);
    cake::passes::runCheckPasses(*ir, facts, sm, d);
    (void)cake::sema::printIR(*ir, sm);
    (void)cake::analysis::describeBarrierProtocols(*ir, facts);
    if (!d.hasErrors() && cake::codegen::hasLowering(t.target)) {
      std::string cuda;
      std::string header;
      (void)cake::codegen::emitCuda(*ir, facts, sm, d, cake::codegen::CodegenOptions(), cuda);
      (void)cake::codegen::emitHeader(*ir, facts, sm, d, cake::codegen::CodegenOptions(), header);
    }
  }
  return 0;
}
