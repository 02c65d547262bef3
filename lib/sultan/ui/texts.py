"""A words section's texts, each made a str when first asked for (the menu's, the refusals).

Imported when one is first wanted: at the start its code would be heap the table never uses.
"""


class Texts:
    """The texts of the words section at ``data[i:end]`` (its "KEY text" lines; comments and blank
    lines left out), each made a str when first asked for, by number.

    The section stays bytes until then: on CircuitPython every new str is first looked for among
    the interned strings (a walk over all of them before 10.x), 0.37 ms a str on the PyBadge,
    and the menu shows a few of its 42 lines at a time.
    """

    def __init__(self, data, i, end):
        self.data = data = data[i:end]
        spans = []  # a text's start and end, two ints a line
        i, end = 0, len(data)
        while i < end:
            j = data.find(b"\n", i)
            if j < 0:
                j = end
            if j > i and data[i] != 35:  # not blank, not "#": a comment
                k = data.find(b" ", i, j)
                spans.append(k + 1 if k >= 0 else j)
                spans.append(j)
            i = j + 1
        self.spans = spans
        self.texts = [None] * (len(spans) // 2)

    def __len__(self):
        return len(self.texts)

    def __getitem__(self, n):
        t = self.texts[n]
        if t is None:
            t = self.texts[n] = str(self.data[self.spans[2 * n]:self.spans[2 * n + 1]], "utf-8")
        return t
