"""What a reader's words around the question cost: the same questions asked bare, behind an opening about the asker
(「老師上課講到這個，我沒聽懂，想請教：」, "Quick question from a book club member: ") and before a closing remark
(「先謝過了，困擾我很久。」, " Thanks in advance!").

Each answerable question (follow-ups aside) is asked bare and once with each opening and each closing of its language;
each off-topic question once with each opening. Printed per variant: how many answerable questions are told "no
passage", their hit@1 beside the bare questions', and how many off-topic ones are still flagged. Three tables of
wordings: ``tuned`` (the ones the preface and remark rules were written against, twenty-first round), ``apart``
(written apart then, tuned on in the twenty-fifth round) and ``apart-25`` (written apart in the twenty-fifth round,
never tuned on): the gap between them is what the rules over-fit. ``--tables dev-25`` asks with the openings written
for tuning in the twenty-fifth round instead.

    python -m benchmarks.robustness [--answerable F ...] [--offtopic F ...] [--limit N] [--tables T ...] [--json]

Without files it reads the development sets of ``tests/data/questions`` (``real_dev*``, ``offtopic*`` but the held-out
``offtopic2``, ``offtopic3`` and ``offtopic_test*``) and the shared dev set: never a held-out set.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path
from typing import Any

from benchmarks._common import DEV_QUESTIONS, PROJECT_ROOT, Timer, load_questions, markdown_table, unit_is_correct, write_json

QUESTIONS = PROJECT_ROOT / "tests" / "data" / "questions"

#: lang → (openings, closings). ``tuned``: the wordings the rules were written against.
TUNED: dict[str, tuple[list[str], list[str]]] = {
    "en": (["I'm a history student writing a term paper on Zhou ritual, and I have a question. ",
            "Quick question from a book club member: ", "My professor mentioned this in class and I didn't quite follow. "],
           [" Thanks!", " Thanks in advance, this has bugged me for weeks.", " I'd guess it's about showing respect?"]),
    "zh-Hans": (["老师上课讲到这个，我没太听懂，想问一下：", "我在写一篇关于周代礼制的论文，请教一个问题：", "最近在读《仪礼》，有个地方不明白，"],
                ["谢谢！", "求大神解答，在线等。", "我猜是为了表示尊敬吧？"]),
    "zh-Hant": (["老師上課講到這個，我沒聽懂，想請教：", "我在寫一篇關於周代禮制的報告，想問：", "最近在讀《儀禮》，有個地方不懂，"],
                ["謝謝！", "先謝過了，困擾我很久。", "我猜是表示尊敬吧？"]),
    "lzh": (["敢問：", "竊有所疑，", "讀儀禮至此，未解，"], ["幸甚。", "願聞其詳。", "抑別有說乎？"]),
}
#: ... and written apart in the twenty-first round; never tuned on until the twenty-fifth, whose preface rules were
#: written against them (文言 self-names, 想確認, 「關於…的講座」, "I'm a retired teacher").
APART: dict[str, tuple[list[str], list[str]]] = {
    "en": (["Hello, I'm a retired teacher who reads Chinese classics in translation. ", "Here's something that puzzled me: ",
            "Sorry if this is basic, "],
           [" Much appreciated.", " Just curious, I suppose it's symbolic.", " Maybe it was for hygiene?"]),
    "zh-Hans": (["你好，我是一名历史爱好者，", "我最近在准备一个关于古代宴饮的讲座，想确认一下：", "求教各位大神，"],
                ["感激不尽！", "我估计跟等级有关吧。", "是不是跟卫生有关？"]),
    "zh-Hant": (["您好，我是高中國文老師，", "我正在寫碩士論文，有一點想確認：", "小弟才疏學淺，"],
                ["感恩！", "我想應該跟身分有關。", "會不會只是習慣？"]),
    "lzh": (["弟子有惑，", "某嘗讀禮，", "謹問："], ["謹謝。", "或曰為敬也，然否？", "願聞。"]),
}
#: ... and written apart in the twenty-fifth round, after the rules had been tuned on ``APART`` too (by a helper who saw
#: no question set and no code): never tuned on.
APART2: dict[str, tuple[list[str], list[str]]] = {
    "en": (
        ["Hi! ",
         "Hey, quick one: ",
         "I'm a philosophy undergrad reading the Yili in Steele's translation, and something in the village drinking chapter confused me. ",
         "Good afternoon. I'm preparing a seminar talk on Zhou banquet ritual for next week, ",
         "Hello, I teach East Asian history at a community college and I'm building a lesson on Confucian ritual. ",
         "Studying for my comps on early Chinese texts and got stuck: "],
        [" Thanks so much!",
         " No rush at all, whenever you have time.",
         " My guess is it has something to do with showing respect to the elders, but I'm not sure.",
         " I've wondered about this for ages.",
         " Any pointers to commentaries would be great. Cheers, Mark",
         " Is it maybe about hierarchy? Thanks again."],
    ),
    "zh-Hans": (
        ["请问一下，",
         "你好！我是中文系研一的学生，",
         "我在读杨天宇的《仪礼译注》，乡饮酒礼那一章有个地方没看懂：",
         "打扰了，我是中学语文老师，下周要给学生讲古代礼仪，想先弄清楚一点：",
         "在准备考研，顺便翻了翻礼书，",
         "各位好，冒昧问个小问题："],
        ["多谢指教！",
         "不急，有空再回就行。",
         "我猜是不是跟尊卑有关？",
         "这个问题困扰我好久了。",
         "先谢过了～",
         "望不吝赐教，祝好！"],
    ),
    "zh-Hant": (
        ["想請問一下，",
         "各位前輩好，",
         "我是中文系大三的學生，最近在讀《儀禮》鄭玄注，有一處不太懂：",
         "您好，我在準備下學期的經學課程報告，",
         "打擾了，我是補習班國文老師，想確認一件事。",
         "最近在準備研究所考試，讀到燕禮時卡住了："],
        ["先謝謝大家！",
         "不急，有空再回覆就好。",
         "會不會是表示敬意的意思？",
         "這個疑問放在心裡很久了。",
         "麻煩各位了，感謝！",
         "還請不吝指正，敬祝 教安"],
    ),
    "lzh": (
        ["某有一事請益：",
         "頃讀鄭注，",
         "僕於禮學素疏，今將為諸生講鄉飲之義，",
         "先生足下：",
         "余方治三禮，撰文未竟，",
         "晚學備試，夜讀燕禮，"],
        ["乞賜教。",
         "不急，暇時示之可也。",
         "意者其尊賢養老之義歟？",
         "此疑蓄之久矣。",
         "伏惟垂教，不勝感荷。",
         "某再拜。"],
    ),
}
#: ... and openings written apart in the twenty-fifth round for tuning (by a helper who saw no question set and no code):
#: the preface rules of that round were written against them (who the asker is, who asked him). ``--tables dev-25``.
DEV25: dict[str, tuple[list[str], list[str]]] = {
    "en": (
        ["Good morning. ",
         "Odd question, bear with me: ",
         "I'm a high school junior doing a project on ancient Chinese manners, and my teacher told me to look at the Yili. ",
         "Reading Steele's old I-Li translation on the train and the village drinking chapter lost me. ",
         "My eight-year-old asked me something at dinner after we watched a documentary on Confucius, and I had no idea. ",
         "I'm a game designer building a banquet scene for a Zhou-era strategy game, so accuracy matters. ",
         "Hello from Melbourne! I'm a nurse who got hooked on classical Chinese during lockdown. ",
         "Apologies for the long message. I'm writing a historical novel set in the state of Lu, and I keep getting stuck on the lord's banquet. ",
         "Zheng Xuan's note here has me going in circles. ",
         "Working through Jia Gongyan's subcommentary slowly, dictionary open, ",
         "My friend and I have been arguing about this for two days, so settle it for us: ",
         "I'm a museum docent prepping for a bronze vessels tour next week. ",
         "Not a specialist at all, just curious. ",
         "Dear tutor, I'm a second-year Sinology student in Leiden getting ready for Friday's reading group on the Yan li. ",
         "Making a YouTube video on ancient drinking etiquette and want to get the details right. "],
        [],
    ),
    "zh-Hans": (
        ["打扰了，",
         "在线等，挺急的：",
         "我是历史系大二学生，这学期选了三礼导读课，",
         "孩子看了《典籍里的中国》问了我一个问题，我答不上来，",
         "最近在做一个关于乡饮酒礼的短视频，想确认一下细节。",
         "本人小学语文老师，业余喜欢翻古书，",
         "看郑玄注看得一头雾水，",
         "读贾公彦疏读到《燕礼》这一段，实在没看懂：",
         "我们馆下个月办青铜酒器展，我负责写展板文字，",
         "各位老师好，我是在北京读书的日本留学生，",
         "和室友争了一晚上，谁也说服不了谁，",
         "手头是中华书局点校本《仪礼注疏》，",
         "在写一部春秋背景的网文，写到宴会这章卡住了。",
         "程序员一枚，纯属好奇，",
         "下周要给本科生讲《燕礼》，备课时发现一个问题。"],
        [],
    ),
    "zh-Hant": (
        ["大家好，",
         "請教一下各位師兄，",
         "我係中大中文系學生，讀緊《儀禮》，",
         "小女兒看完故宮的紀錄片問了我一個問題，",
         "手上是臺灣商務的《儀禮今註今譯》，",
         "在PTT古典板潛水很久，第一次發文，",
         "我是做桌遊設計的，正在做一款周代宴會主題的遊戲，",
         "讀鄭玄注讀到頭昏，",
         "賈公彥疏這段真的看不太懂，",
         "下週要帶學生去史語所參觀，想先做點功課。",
         "打擾了，",
         "跟朋友為了鄉飲酒禮吵起來，",
         "本人香港中學中史科老師，備課時遇到一個問題：",
         "抱歉問題有點冷門，",
         "老師您好，我是修您禮學課的學生，關於上週講的《燕禮》："],
        [],
    ),
    "lzh": (
        ["某不敏，",
         "僕鄉曲末學，",
         "頃讀燕禮，",
         "賈疏於此語焉不詳，",
         "鄭君之注，某反覆數過，終未能通，",
         "某授徒鄉塾，講鄉飲酒禮，",
         "吾兒問禮於余，余不能對，",
         "某將赴試，溫習儀禮，",
         "與友論禮，各執一說，",
         "久疏問候。",
         "某讀注疏，",
         "伏惟先生博通三禮，",
         "近校儀禮注疏，",
         "閒中讀經，",
         "某海外之人，慕中華禮樂，"],
        [],
    ),
}
COLUMNS = ["wordings", "variant", "asked", "no passage", "hit@1", "hit@1 bare", "off-topic asked", "off-topic flagged"]
TABLES = {"tuned": TUNED, "apart": APART, "apart-25": APART2, "dev-25": DEV25}
DEFAULT_TABLES = ("tuned", "apart", "apart-25")
_HELD_OUT = re.compile(r"^(?:offtopic[23]|offtopic_test\d*|real_test\d*)\.jsonl$")


def default_files() -> tuple[list[Path], list[Path]]:
    """The development question files: answerable and off-topic (no held-out set)."""
    answerable = sorted(QUESTIONS.glob("real_dev*.jsonl")) + ([DEV_QUESTIONS] if DEV_QUESTIONS.exists() else [])
    offtopic = [p for p in sorted(QUESTIONS.glob("offtopic*.jsonl")) if not _HELD_OUT.match(p.name)]
    return answerable, offtopic


def _first_is_gold(answer: Any, q: Any) -> bool:
    """The answer's first unit is one of the question's gold units."""
    return bool(answer.hits) and unit_is_correct(answer.hits[0].unit, q)


def measure(r: Any, answerable: list[Any], offtopic: list[dict[str, str]], tables: dict[str, dict]) -> list[dict[str, Any]]:
    """One row per wordings table and variant (opening, closing)."""
    bare_hit = {q.id: _first_is_gold(r.ask(q.question), q) for q in answerable}
    rows = []
    for name, table in tables.items():
        for kind, index in (("opening", 0), ("closing", 1)):
            asked = told = hit = hit_bare = 0
            for q in answerable:
                for words in table.get(q.lang, ([], []))[index]:
                    a = r.ask(words + q.question if kind == "opening" else q.question + words)
                    asked += 1
                    told += not a.found
                    hit += _first_is_gold(a, q)
                    hit_bare += bare_hit[q.id]
            off_asked = off_flagged = 0
            if kind == "opening":
                for row in offtopic:
                    for words in table.get(row["lang"], ([], []))[0]:
                        a = r.ask(words + row["question"])
                        off_asked += 1
                        off_flagged += (not a.found) or bool(a.notice)
            rows.append({"wordings": name, "variant": kind, "asked": asked, "no passage": told,
                         "hit@1": hit / max(1, asked), "hit@1 bare": hit_bare / max(1, asked),
                         "off-topic asked": off_asked or "", "off-topic flagged": off_flagged or ""})
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--answerable", type=Path, nargs="*", help="answerable question files (default: the dev sets)")
    ap.add_argument("--offtopic", type=Path, nargs="*", help="off-topic question files (default: the dev sets)")
    ap.add_argument("--limit", type=int, default=0, help="ask only the first N answerable and N off-topic questions")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--tables", nargs="*", choices=sorted(TABLES), default=list(DEFAULT_TABLES),
                    help="the tables of wordings to ask with (default: %(default)s)")
    args = ap.parse_args(argv)
    from qa import Retriever

    answerable_files, offtopic_files = default_files()
    answerable = [q for f in (args.answerable or answerable_files) for q in load_questions(f) if not q.history]
    offtopic = [json.loads(line) for f in (args.offtopic or offtopic_files)
                for line in f.read_text(encoding="utf-8").splitlines() if line.strip()]
    if args.limit:
        answerable, offtopic = answerable[: args.limit], offtopic[: args.limit]
    r = Retriever.load()
    with Timer() as t:
        rows = measure(r, answerable, offtopic, {name: TABLES[name] for name in args.tables})
    result = {"answerable": len(answerable), "offtopic": len(offtopic), "rows": rows, "seconds": t.seconds}
    path = write_json("robustness.json", result)
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        print(f"{len(answerable)} answerable and {len(offtopic)} off-topic development questions; {t.seconds:.0f} s")
        print(markdown_table(rows, COLUMNS))
        print(f"\nJSON: {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
