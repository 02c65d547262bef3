"""The words the player reads: refusal reasons by the rules' reason code.

``%c`` stands for a card, drawn with the sprite sheet's rank and suit glyphs.
"""

REFUSALS = (
    "",
    "no such place",
    "no card there",
    "%c does not fit on %c",
    "%c pile is complete",
    "%c fits nowhere yet",
    "the stock is empty",
    "stock is not empty yet",
    "no redeal left",
    "nothing to undo",
    "nothing to redo",
    "the game is over",
    "move log is full",
    "not in these rules",
    "that slot is taken",
)

