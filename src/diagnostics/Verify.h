// Verify: `cakec -verify`, in the style of clang's -verify.
//
// Expected diagnostics are written in comments of the input itself:
//
//   x = (1 + )   # expected-error {{unexpected ')'}}
//   # expected-error@+1 {{text}}      the next line
//   # expected-warning@-2 {{text}}    two lines up
//   # expected-note@7 {{text}}        line 7
//   # expected-note 2 {{text}}        two such notes
//   # expected-no-diagnostics         nothing at all is expected
//
// The text is matched as a substring of the message. Every diagnostic must
// be expected and every expectation met; mismatches are reported as
// diagnostics of their own and make cakec exit 1.
#pragma once

#include <vector>

#include "diagnostics/Diagnostics.h"

namespace cake {

class VerifyDiagnosticConsumer : public DiagnosticConsumer {
public:
  // `report` receives the verifier's own findings (mismatches).
  VerifyDiagnosticConsumer(const SourceManager &sm, DiagnosticEngine &report) : sm_(sm), report_(report) {}

  void handle(const Diagnostic &d) override;
  // Parses the directives of every file and compares; call once at the end.
  void finish() override;

private:
  struct Expected {
    Severity severity;
    FileId file;
    uint32_t line;
    uint32_t directiveLine;
    uint32_t directiveCol;
    std::string text;
    bool seen = false;
  };
  struct Seen {
    Severity severity;
    SourceRange range;
    std::string message;
  };
  void parseDirectives(FileId file, std::vector<Expected> &out, bool &noDiagnostics, bool &any);

  const SourceManager &sm_;
  DiagnosticEngine &report_;
  std::vector<Seen> seen_;
};

}  // namespace cake
