"""Code and tests say why, not which ticket: no issue number in lib/, host/, tools/, firmware/, the tests,
the Makefile or CI's script (the history of why is in the commit messages)."""

import os
import re
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# the word for a ticket with its number (with or without "#"), and the section sign before a number
TICKET = re.compile(r"\b" + "iss" + r"ues? ?#?\d+|\u00a7 ?\d", re.I)
WHERE = ("lib", "host", "tools", "firmware", "host_tests", "Makefile", ".ci")


def test_the_pattern_finds_a_ticket_and_not_a_word():
    assert TICKET.search("(iss" + "ue 27, goal 4)") and TICKET.search("Iss" + "ues 5 and 6")
    assert not TICKET.search("the issues of a board, tissue 3")


def test_no_issue_numbers():
    if not os.path.exists(os.path.join(ROOT, ".git")):
        pytest.skip("not a git checkout")
    names = subprocess.run(["git", "ls-files", "--", *WHERE], cwd=ROOT, capture_output=True, text=True).stdout
    found = []
    for name in names.split():
        path = os.path.join(ROOT, name)
        if not os.path.isfile(path) or name.endswith((".png", ".gif", ".tbl", ".json")):
            continue
        try:
            text = open(path, encoding="utf-8").read()
        except UnicodeDecodeError:
            continue
        found += ["%s:%d" % (name, text.count("\n", 0, m.start()) + 1) for m in TICKET.finditer(text)]
    assert found == []
