"""The docs stay a person's read: docs/'s prose within 12,000 words and no page over 2,500 (as ``wc -w`` counts;
the figure pages that benchmarks write are tables, not prose, and are counted apart), no
commit hash in docs/, the README or the changelog (the history is in the commit messages), and every release
of the changelog within 400 words."""

import os
import re
import subprocess

import pytest
from runners import ROOT

DOCS = os.path.join(ROOT, "docs")
PAGES = sorted(f for f in os.listdir(DOCS) if f.endswith(".md"))
HEX = re.compile(r"(?<![0-9A-Za-z_])[0-9a-f]{7,40}(?![0-9A-Za-z_])")


def words(path):
    return len(open(path, encoding="utf-8").read().split())


def written_by_a_bench(path):
    """A figure page: its opening paragraph says which ``make bench-*`` writes it."""
    head = open(path, encoding="utf-8").read(600)
    return re.search(r"^Written by `make bench-", head, flags=re.M) is not None


def test_the_figure_pages_are_told_apart_from_prose():
    figures = [p for p in PAGES if written_by_a_bench(os.path.join(DOCS, p))]
    assert "figures.md" in figures and "rules.md" not in figures


def test_docs_within_their_words():
    sizes = {page: words(os.path.join(DOCS, page)) for page in PAGES
             if not written_by_a_bench(os.path.join(DOCS, page))}
    assert len(sizes) > 5
    assert sum(sizes.values()) <= 12000, sizes
    assert max(sizes.values()) <= 2500, sizes


def commits_named(text):
    """The hex words of ``text`` that name a commit of this repository."""
    out = []
    for word in sorted(set(HEX.findall(text))):
        r = subprocess.run(["git", "rev-parse", "--verify", "--quiet", word + "^{commit}"], cwd=ROOT,
                           capture_output=True, text=True)
        if r.returncode == 0:
            out.append(word)
    return out


def test_commits_named_finds_a_commit_and_nothing_else():
    if not os.path.exists(os.path.join(ROOT, ".git")):
        pytest.skip("not a git checkout")
    head = subprocess.run(["git", "rev-parse", "--short=8", "HEAD"], cwd=ROOT, capture_output=True,
                          text=True).stdout.strip()
    assert commits_named("at %s, 0xff000, deadbeef00, abcdefg" % head) == [head]


@pytest.mark.parametrize("name", ["docs/" + p for p in PAGES] + ["README.md", "CHANGELOG.md"])
def test_no_commit_hashes(name):
    if not os.path.exists(os.path.join(ROOT, ".git")):
        pytest.skip("not a git checkout")
    assert commits_named(open(os.path.join(ROOT, name), encoding="utf-8").read()) == []


def test_each_release_of_the_changelog_within_400_words():
    text = open(os.path.join(ROOT, "CHANGELOG.md"), encoding="utf-8").read()
    releases = re.split(r"^## ", text, flags=re.M)[1:]
    assert releases, "no release headings"
    for release in releases:
        assert len(release.split()) <= 400, release.splitlines()[0]
