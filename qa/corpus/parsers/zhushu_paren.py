"""Parser for 儀禮注疏 with 注 in （） and 疏 under [疏]/注 header lines (seed 001, 燕禮 後半).

Format, one item per line, blank lines between:

- a 經 line, 鄭注 inline in full-width parentheses, which may interrupt the 經:
  「士旅酌。（旅，序也。…）卒。」 → 經 「士旅酌。卒。」, 注 「旅，序也。…」
  (several （…） on one line are one 注; the brackets are consumed markup);
- ``[疏]“X”至“Y”。`` opens a 疏 part on the 經, ``注“A”至“B”。`` one on the 注
  (a header may stand alone, its text then empty, when the 疏 treats 經 and 注 together);
- ``釋曰：…`` is the text of the part opened last (a second 釋曰 line continues it).

The parentheses mark the 經/注 split, so every unit's ``boundary`` is "marked". A 疏 is
attached as in :mod:`._zhushu_common` (it follows the last 經 it explains; a
「X」至「Y」 header spanning several 經 lines merges them). Warnings: an unclosed
（, a 釋曰 with no header, a header that does not match its 經/注, and a file that
ends inside a 疏 (001 ends right after 注“庶子”至“薦也”。).
"""

from __future__ import annotations

import re

from ..catalog import SeedFile
from ..units import ParsedFile, ShuOn
from ._zhushu_common import Assembler, Draft, Piece, ShuDraft, piece, split_lines, split_quote

_QUOTE = r"“([^”]*)”(?:至“([^”]*)”)?"
#: [疏]“X”至“Y”。  (the 疏 on the 經)
_JING_HEAD = re.compile(rf"\s*\[疏\]\s*(?:{_QUOTE}。?)?")
#: 注“A”至“B”。  or a bare 注 before 釋曰 (the 疏 on the 注)
_ZHU_HEAD = re.compile(rf"\s*注\s*(?:{_QUOTE}。?|(?=[釋辭]曰))")
_SHIYUE = re.compile(r"\s*[釋辭]曰")


def _quote_of(line: str, m: re.Match[str]) -> str | None:
    """The quote as written between the outer “ ”, e.g. 賓反”至“乃安."""
    if m.group(1) is None:
        return None
    return line[m.start(1) : m.end(2) if m.group(2) is not None else m.end(1)]


def _jing_line(lines: list[str], no: int, asm: Assembler) -> Draft:
    """Split a 經 line into 經 pieces and （注） pieces; the brackets are markup."""
    line = lines[no - 1]
    draft = Draft(marked=True)
    pos = 0
    while pos < len(line):
        open_at = line.find("（", pos)
        if open_at < 0:
            break
        close_at = line.find("）", open_at + 1)
        if open_at > pos:
            draft.jing.append(piece(lines, no, pos, open_at))
        asm.markup.append(piece(lines, no, open_at, open_at + 1))
        if close_at < 0:
            asm.warn(no, "（ without ）: the rest of the line is taken as 注")
            draft.zhu.append(piece(lines, no, open_at + 1, len(line)))
            pos = len(line)
            break
        draft.zhu.append(piece(lines, no, open_at + 1, close_at))
        asm.markup.append(piece(lines, no, close_at, close_at + 1))
        pos = close_at + 1
    if pos < len(line):
        draft.jing.append(piece(lines, no, pos, len(line)))
    if "）" in "".join(p.text for p in draft.jing):
        asm.warn(no, "） without （: kept in the 經 text")
    draft.jing = [p for p in draft.jing if p.end > p.start]
    draft.zhu = [p for p in draft.zhu if p.end > p.start]
    return draft


def _header(lines: list[str], no: int, m: re.Match[str], on: ShuOn) -> ShuDraft:
    line = lines[no - 1]
    quote = _quote_of(line, m)
    x, y = split_quote(quote, "”至“")
    part = ShuDraft(on=on, quote=f"“{quote}”" if quote else None, x=x, y=y, header=[piece(lines, no, 0, m.end())])
    if m.end() < len(line):  # 釋曰 on the header's own line
        part.text.append(piece(lines, no, m.end(), len(line)))
    return part


def parse(seed: SeedFile, text: str) -> ParsedFile:
    """Parse a 注-in-（） 注疏 file (see the module docstring) into lemma units."""
    lines = split_lines(text)
    asm = Assembler(seed)
    for no, line in enumerate(lines, 1):
        if not line.strip():
            asm.markup.append(Piece(no, 0, len(line), line))
        elif m := _JING_HEAD.match(line):
            asm.add_part(_header(lines, no, m, "經"))
        elif m := _ZHU_HEAD.match(line):
            asm.add_part(_header(lines, no, m, "注"))
        elif _SHIYUE.match(line):
            if asm.parts:
                asm.parts[-1].text.append(piece(lines, no, 0, len(line)))
            else:
                asm.warn(no, "釋曰 with no 疏 header before it: kept as a 疏 part on the 經")
                asm.add_part(ShuDraft(on="經", quote=None, x=None, y=None, text=[piece(lines, no, 0, len(line))]))
        else:
            asm.add_item(_jing_line(lines, no, asm))
    return asm.finish()
