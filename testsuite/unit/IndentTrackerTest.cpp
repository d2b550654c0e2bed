// Unit tests for the INDENT/DEDENT logic (lexer_parser/IndentTracker).
#include <doctest/doctest.h>

#include "lexer_parser/IndentTracker.h"

using cake::IndentTracker;

TEST_CASE("a deeper line opens exactly one block") {
  IndentTracker t;
  auto c = t.newLine(4);
  CHECK(c.indents == 1);
  CHECK(c.dedents == 0);
  CHECK(t.depth() == 1);
  c = t.newLine(4);
  CHECK(c.indents == 0);
  CHECK(c.dedents == 0);
}

TEST_CASE("dedenting several levels at once closes each of them") {
  IndentTracker t;
  t.newLine(2);
  t.newLine(6);
  t.newLine(8);
  CHECK(t.depth() == 3);
  auto c = t.newLine(2);
  CHECK(c.dedents == 2);
  CHECK_FALSE(c.inconsistent);
  CHECK(t.depth() == 1);
}

TEST_CASE("a dedent to a width no outer block has is inconsistent") {
  IndentTracker t;
  t.newLine(4);
  t.newLine(8);
  auto c = t.newLine(6);
  CHECK(c.dedents == 1);
  CHECK(c.inconsistent);
}

TEST_CASE("end of file closes every open block") {
  IndentTracker t;
  t.newLine(4);
  t.newLine(8);
  CHECK(t.closeAll() == 2);
  CHECK(t.depth() == 0);
  CHECK(t.closeAll() == 0);
}

TEST_CASE("measure counts spaces and rounds tabs up to multiples of eight") {
  bool tab = false;
  CHECK(IndentTracker::measure("    ", tab) == 4);
  CHECK_FALSE(tab);
  CHECK(IndentTracker::measure("\t", tab) == 8);
  CHECK(tab);
  CHECK(IndentTracker::measure("  \t ", tab) == 9);
  CHECK(tab);
  CHECK(IndentTracker::measure("", tab) == 0);
}
