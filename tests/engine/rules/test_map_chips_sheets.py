"""Every sentence of the five Map-Chips rule sheets is quoted in the docstring of at least one test.

The sentences are the English sheets of ``shared/rules/maps-rules-en.txt`` split at sentence ends,
verbatim; headings, picture captions that only point at a picture ("This is an example of how the
chips could be placed."), the webshop line and the copyright block are left out. Matching ignores
line breaks, repeated spaces and the quotes around a quotation.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.usefixtures("module_or_preset")  # also the preset as data

SHEETS: dict[str, tuple[str, ...]] = {
    "France": (
        "With this mini-expansion you will produce and sell wine to score points.",
        "30 Map-Chips (10 each in purple, light blue and orange).",
        "We recommend to play with 110–120 tiles (e.g. base game + 1st + 2nd expansion)",
        "Use 2 of the 3 available starting-squares (Nancy, Le Mans and Limoges).",
        "Shuffle all 30 Chips face down.",
        "Place them evenly distributed on the squares of the map and stick to the following rules:",
        "place them face down",
        "only 1 chip per square",
        "no chips on the large city squares or town squares",
        "no chips may be placed next to each other vertically or horizontally (only diagonally)",
        "no chips vertically or horizontally adjacent to a used starting square or an open side of a large city",
        "If you place a tile on a square with a chip you take the chip and get 1 or 2 points immediately.",
        "Then you place the chip face up in front of you.",
        "You place a tile on a square with a chip and you take it.",
        "Now you get 2 points.",
        "There are 3 types of grapes: purple, light blue and orange.",
        "If there are 2 points of one type of grape in front of you, you have produced wine.",
        "With these chips you have produced an orange wine (1+1=2) and a blue wine (2).",
        "After having placed a tile you are allowed to place a meeple according to the general rules.",
        "You can sell 1 Wine per round.",
        "You have to pay with Chips (exactly 2 points) from one type of grape (same color).",
        "You have two possibilities of selling wine:",
        "1) You sell wine to another country (5 points)",
        "If you place a tile connecting to a road or a city with a coat of arms on the border of the map (you enable a connection to another country), you are allowed to sell wine.",
        "You don't have to score points with this tile.",
        "You get 5 points.",
        "You enable a connection to another country by placing the land tile and you sell the purple wine for 5 points.",
        "2) You sell the appropriate wine to a town (9 points)",
        "If you cover a town with a land tile you are allowed to sell the wine of the type of grape shown on the town square.",
        "You get 9 points.",
        "Chips of sold wine are no longer in the game.",
        "You place a land tile on the square of Nancy (orange wine) and you sell your orange wine for 9 points.",
        "At the end of the game you don't get any points for unsold wine / chips.",
    ),
    "Benelux": (
        "With this mini-expansion you can sail to different islands in the North Sea to pick up face up land tiles which you can place instead of the tiles drawn from the stack.",
        "30 Map-Chips (10 each in purple, light blue and orange).",
        "We recommend to play with 110-120 tiles (e.g. base game + 1st + 2nd expansion)",
        "Use 2 of the 3 available starting-squares (Meppel, Eindhoven and Charleroi).",
        "Shuffle all 30 Chips face down.",
        "Place 20 of them evenly distributed on the squares of the map and stick to the following rules:",
        "place them face down",
        "only 1 chip per square",
        "no chips on the large city squares or town squares",
        "no chips may be placed next to each other vertically or horizontally (only diagonally)",
        "no chips vertically or horizontally adjacent to a used starting square or an open side of a large city",
        "The remaining 10 Chips are taken out of the game without looking at them.",
        "Now you shuffle all Land tiles and make 6 stacks with 5 tiles each.",
        "Place all of them on the 6 Island squares (2 stacks per island) on the map.",
        "Place the first tiles of the stacks face up.",
        "With the remaining Land tiles you make the usual stacks.",
        "On the map there are three squares marked with waves.",
        "You cannot place a Land tile on these squares.",
        "If you place a tile on a square with a chip you take the chip and get 1 or 2 points immediately.",
        "Then you place the chip face up in front of you.",
        "You place a tile on a square with a chip and you take it.",
        "Now you get 2 points.",
        "If it's your turn and you have at least one Chip in front of you, it is up to you to decide ...",
        "a) ... if you want to take a face up Island Land tile from an island of the respective color instead of one from the usual stack.",
        "If there are still both stacks on the island, you can choose which one you want to take.",
        "If there is only one stack left, you pick the first tile of the remaining stack.",
        "Then you get rid of your Chip (it's no longer in the game anymore) and you place your Land tile.",
        "At the end of your turn you reveal the top tile of the used Island stack.",
        "You pay a purple Chip and you take one of the face up tiles from the purple island.",
        "Then you place your Land tile.",
        "At the end of your turn you reveal the next tile.",
        "OR",
        "b) ... if you take a face down Land tile as usual.",
        "Having taken a face down tile you cannot choose again but you have to use the one you've just picked.",
        "You may collect Chips and use them later in the game.",
        "The game ends as usual after the last face down Land tile has been placed.",
        "Remaining Chips or Island tiles don't matter.",
        "After having placed a tile you are allowed to place a Meeple according to the general rules.",
        "The scoring is done as usual.",
    ),
    "Great Britain": (
        "With this mini-expansion you can place a Meeple on the Isle of Man and you get another turn.",
        "You have to find a suitable ship, need enough resources and the weather is also important for getting your Meeples back.",
        "30 Map-Chips (10 each in purple, light blue and orange).",
        "We recommend to play with 90 – 100 tiles.",
        "Use all 3 available starting-squares (Kilkenny, Carlisle and Bristol).",
        "On the map there are 3x10 squares marked with a colored Chip-symbol.",
        "Sort all 30 Chips according to their colors.",
        "Then shuffle the groups of 10 face down.",
        "Then you place them face down on the respective square on the map.",
        "The 10 blue ones are in the North (Scotland) the 10 orange ones in the West (Ireland) and the 10 purple ones in the South (England and Wales).",
        "Place the Chips on the squares and make sure that you can see the colored marks on the squares so that you always know which color the Chips have.",
        "You place the Chips so that you can still know their color but you can't see the number.",
        "If you place a tile on a square with a chip you take the chip and get 1 or 2 points immediately.",
        "Then you place the chip face up in front of you.",
        "You place a tile on a square with a Chip and you take it.",
        "You get two points.",
        "After having finished your „normal“ turn you have the possibility to „buy“ one additional turn.",
        "You place one Meeple from your stash on the Isle of Man and you immediately carry out your second turn.",
        "You take another Land tile, place it, etc.",
        "You may only do one additional turn per round.",
        "The Meeples placed on the Isle of Man can't be used until they are taken back.",
        "You place one of your Meeples on the Isle of Man and you immediately carry out another turn.",
        "To get your Meeples back from the Isle of Man to your stash you need money a boat and good weather.",
        "That means that you always need a set of exactly three Chips which you can use.",
        "These Chips either have to have",
        "1) the same number (it doesn't matter which color they have in this case)",
        "2) all the three colors (in this case the numbers aren't important).",
        "If you get a Chip and this Chip completes a set you have to use it immediately and take the Chips out of the game.",
        "You take all your Meeples back from the Isle of Man at the same time.",
        "It is not allowed to keep a set for later on.",
        "Remaining Chips don't give you any points.",
        "After having placed a tile you are allowed to place a meeple according to the general rules.",
        "The scoring is done as usual.",
    ),
    "Península Ibérica": (
        "With this mini-expansion you can collect Chips and place them as treats.",
        "If you find a treat, you'll get points.",
        "30 Map-Chips (10 each in purple, light blue and orange).",
        "We recommend to play with 110-120 tiles (e.g. base game + 1st+2nd expansion).",
        "Use 3 of the 4 available starting-squares (León, Pamplona, Évora and Murcia).",
        "Shuffle all 30 Chips face down.",
        "Place them evenly distributed on the squares of the map and stick to the following rules:",
        "place them face down",
        "only 1 chip per square",
        "no chips on the large city squares or town squares",
        "no chips next to each other vertically or horizontally (only diagonally)",
        "no chips vertically or horizontally adjacent to a used starting square or an open side of a large city",
        "no chips on the island squares of the Balearic Islands.",
        "You can only place tiles on Island-squares if they have been connected with a ferry route from the mainland (see general rules).",
        "If you place a tile on a square with a coat of arms, you'll get two points per coat of arms immediately.",
        "The island has been connected to the mainland.",
        "You place a tile on the island and you get 4 points immediately (for the two coats of arms).",
        "If you place a tile on a square with a chip you take the chip, you turn it face down and get 1 or 2 points immediately.",
        'Then you place the chip again face up on the map respecting the following rules "to place a treat":',
        "You place a tile on a square with a Chip and you take it.",
        "You get two points.",
        "The color of a Chip determines the area, i.e. the tracks in which you have to place your treat face up:",
        "orange Chip = top tracks (1 to 4)",
        "blue Chip = centre tracks (5 to 8)",
        "purple Chip = bottom tracks (9 to 12)",
        "You can find the respective tracks looking at the colored bars.",
        "On one of the possible tracks you look for a free square without a tile (preprinted or placed) and place the Chip face up on it.",
        "If you place a tile on a square with a treat (face up Chip), you take the Chip and you get twice the number of points shown on the Chip (2 or 4 points).",
        "Then you take the Chip out of the game.",
        "You place a tile on a square with a treat, take the tile out of the game and get 4 points.",
        "Remaining face up or face down Chips don't give you any points.",
        "After having placed a tile you are allowed to place a meeples according to the general rules.",
        "The scoring is done as usual.",
    ),
    "Deutschland": (
        "With this mini-expansion you can upgrade your Meeples to have a majority during scoring.",
        "30 Map-Chips (10 each in purple, light blue and orange).",
        "We recommend to play with 110-120 tiles (e.g. base game + 1st + 2nd expansion)",
        "Use 2 of the 3 available starting-squares (Rostock, Erfurt and Stuttgart).",
        "Shuffle all 30 Chips face down.",
        "Place them evenly distributed on the squares of the map and stick to the following rules:",
        "place them face down",
        "only 1 chip per square",
        "no chips on the large city squares or town squares",
        "no chips next to each other vertically or horizontally (only diagonally)",
        "no chips vertically or horizontally adjacent to a used starting square or an open side of a large city",
        "If you place a tile on a square with a chip you take the chip and get 1 or 2 points immediately.",
        "Then you place the chip face up in front of you.",
        "You place a tile on a square with a chip and you take it.",
        "Now you get 2 points.",
        "After having placed a tile you are allowed to place a Meeple according to the general rules.",
        "If you have collected Chips with an exact value of 4 (4x 1-value | 2x2-value | 2x 1-value + 1x2-value), you can use them in this or in another round to upgrade one of your Meeples:",
        "You take one of your Chips (the value doesn't matter) and you place it under one of your Meeples.",
        "This can be a Meeple which has been placed in another round or the one you've just placed (the other Chips you used to pay for the upgrade are taken out of the game).",
        "You may upgrade a Meeple only once",
        "With these Chips you can upgrade a Meeple",
        "One Chip is placed under your Meeple.",
        "The other Chips are taken out of the game",
        "During a scoring an upgraded Meeple counts as 2 Meeples in the respective area (like the big Meeple of the 1st expansion).",
        "After scoring the Meeple returns to your stash as usual and the Chip is taken out of the game.",
        "This Meeple isn't upgraded anymore and counts again as a normal one (you may upgrade it the same way you did before).",
        "The road is completed.",
        "Because of your upgraded Meeple you have the majority and you get 4 points.",
        "Blue doesn't get any points.",
        "The upgrade-Chip is taken out of the game.",
        "Upgraded Meeples count as two even at the end of the game (also farmers).",
    ),
}


def _norm(text: str) -> str:
    text = text.replace("**", "").replace("\u201c", '"').replace("\u201e", '"')
    return re.sub(r"\s+", " ", text).strip()


def _docstrings() -> str:
    here = Path(__file__).parent
    out = []
    for path in sorted(here.glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                doc = ast.get_docstring(node, clean=True)
                if doc:
                    out.append(doc)
    return _norm("\n".join(out))


_DOCS = _docstrings()


@pytest.mark.parametrize(
    ("sheet", "sentence"),
    [(sheet, s) for sheet, sents in SHEETS.items() for s in sents],
)
def test_sentence_is_quoted_by_a_test(sheet: str, sentence: str) -> None:
    assert _norm(sentence) in _DOCS, f"{sheet}: no test quotes {sentence!r}"
