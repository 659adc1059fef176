"""qa.text.cedict and qa.retrieval.bridge: CC-CEDICT as the English ↔ Chinese and modern → classical bridge."""

from __future__ import annotations

from qa.retrieval.bridge import QUOTED_PHRASE_CHARS, Bridge
from qa.retrieval.query import analyze
from qa.text.cedict import cedict, parse, pinyin_key, sense_words

LINES = [
    "# comment",
    "召 召 [Shao4] /surname Shao/",
    "召 召 [zhao4] /to call together/to summon/to convene/",
    "賓 宾 [bin1] /visitor/guest/object (in grammar)/",
    "客人 客人 [ke4 ren2] /visitor/guest/customer/client/CL:位[wei4]/",
    "清水 清水 [qing1 shui3] /fresh water/drinking water/clear water/",
]


def test_parse_keeps_senses_and_english_index():
    d = parse(LINES)
    assert d.senses("客人")[:2] == ("visitor", "guest")
    assert "surname shao" not in d.senses("召")  # proper names are left out
    assert "召" in d.headwords("summon") and "宾" in d.headwords("guests")  # stemmed English
    assert "清水" in d.headwords("water")  # a two-word sense ("fresh water") is indexed by each word
    assert sense_words("to summon (sb)") == ["summon"] and sense_words("CL:位[wei4]") == []


def test_readings_without_tones():
    d = parse(LINES)
    assert d.readings("召") == ("shao", "zhao")  # a surname's reading is a reading too
    assert d.readings("宾") == ("bin",) and d.readings("客人") == ()  # characters only
    assert pinyin_key("lǚ chóu") == pinyin_key("lu:3 chou2") == pinyin_key("lvchou") == "luchou"
    assert d.is_english("guests") and not d.is_english("bin")
    assert d.toned("召") == ("shao4", "zhao4") and d.toned("客人") == ()  # and with their tones


def test_homophone_slips_are_read_as_the_term(real_retriever):
    """A pinyin keyboard's slip (司政 for 司正, 乐证 for 乐正: same sound, same tones, a character shared) is read
    as the term; a run that is grammar (几首 "how many songs" is not 稽首), a dictionary word (公式), a ritual
    character of its own (祭肺 is not 嚌肺) or another tone (宾接 is not 宾介) is no slip."""
    b: Bridge = real_retriever.bridge
    assert b.slips(analyze("乐证到底是谁？")) == ("乐正",)
    assert b.slips(analyze("为什么突然要立个司政出来？")) == ("司正",)
    assert b.slip_pairs(analyze("为什么突然要立个司政出来？")) == (("司政", "司正"),)
    q = real_retriever.understand(analyze("为什么突然要立个司政出来？"))
    # the reader's own word, written as the term (an expansion would weigh less than 立 of 立个, which matches 立飲)
    assert any("司正" in s for s in q.segments) and "司政" not in q.core and "司正" not in q.expansions
    answer = real_retriever.ask("乡饮酒礼为什么要设一个司政？")
    assert "立司正以監之" in answer.evidence[0].text
    for text in ("合乐一共唱了几首？", "宾接过来不喝", "公式怎么推导", "乡饮酒祭肺言缭", "主人为什么要洗杯子"):
        assert b.slips(analyze(text)) == (), text


def test_a_rite_name_heard_in_other_characters_names_the_rite(real_retriever):
    """Dictation and hurried typing write a rite's name in other characters of its sound (向饮酒礼, 香饮酒, 宴礼): the
    rite is named and the misheard name is no word of the question. A two-character name needs its 禮 (研理 is no 燕禮);
    a question naming a rite, or another rite, is left as it is."""
    b: Bridge = real_retriever.bridge
    assert b.heard_rites(analyze("就是那个向饮酒礼里宾的座位朝哪边")) == (("向饮酒礼", "xiangyin"),)
    q = real_retriever.understand(analyze("宴礼里宾坐哪里"))
    assert q.rites == ("yan",) and q.segments == ("宾座位",)  # 坐哪 asks the seat (qa.retrieval.query)
    assert real_retriever.understand(analyze("香饮酒的时候介坐哪")).rites == ("xiangyin",)
    for text in ("研理是什么", "主人为什么洗爵", "现在宴席上要敬酒吗", "燕礼上宾坐哪里"):
        assert b.heard_rites(analyze(text)) == (), text


def test_pinyin_spells_ritual_terms(real_retriever):
    """A reader who writes a term in pinyin names it: compounds are composed from the characters'
    readings (CC-CEDICT lists few of the corpus's compounds), a lone syllable is ambiguous."""
    b: Bridge = real_retriever.bridge
    assert b.pinyin_terms(analyze("What is the xuanjiu for?")) == ("玄酒",)
    assert b.pinyin_terms(analyze("What does lu chou mean?")) == ("旅酬",)
    assert "旨" in b.pinyin_terms(analyze("Why does the guest say zhi?"))
    assert b.pinyin_terms(analyze("what is a zhezu, the meat stand?")) == ("折俎",)  # a recurring word of the 經
    assert b.pinyin_terms(analyze("Why does the guest bow?")) == ()  # English words are never read as pinyin
    # a name the 經 lists once (工歌鹿鳴、四牡、皇皇者華) is spelled as well as a recurring word
    assert b.pinyin_terms(analyze("Why do they sing Lu ming first?")) == ("鹿鸣",)
    assert b.pinyin_terms(analyze("What is the song Huanghuang zhe hua about?")) == ("皇皇者华",)
    q = real_retriever.understand(analyze("What is the xuanjiu for?"))
    assert "玄酒" in q.expansions and "玄酒" not in q.bridged  # the reader's own word: BM25 matches it
    zhi = real_retriever.understand(analyze("Why does the guest say zhi?"))
    assert {"旨", "觯"} <= set(zhi.bridged)  # one syllable, several characters: each a guess
    assert b.names_ritual_term(q)  # never refused
    a = real_retriever.ask("Why is the xuanjiu placed on the west?")
    assert a.found and a.hits[0].unit.id == "zhushu.xiangyin.007"


def test_the_jing_quoted_in_pinyin_is_spelled(real_retriever):
    """Three or four syllables that read as a clause's run of the 經 quote it (zuo xing zhi → 坐行之 of 「乃就席，坐行之」),
    when no term of the corpus reads so; never across the 經's punctuation (鹿鳴、四牡 holds no 鹿鳴四)."""
    b: Bridge = real_retriever.bridge
    assert b.pinyin_terms(analyze('What does "zuo xing zhi" mean at the duke\'s feast?')) == ("坐行之",)
    assert b.pinyin_terms(analyze("Who are the 'nei xiao chen'?")) == ("内小臣",)
    assert "鹿鸣四" not in b.pinyin_terms(analyze("Why do they sing Lu ming si mu?"))
    assert all(len(p) in QUOTED_PHRASE_CHARS for phrases in b.jing_phrases.values() for p in phrases)
    # two syllables read as a word of the 經 only within quotation marks ('gou jing' → 苟敬 of 「賓為苟敬」)
    assert b.pinyin_terms(analyze("The text calls him 'gou jing'. What is that word?")) == ("苟敬",)
    assert "苟敬" not in b.pinyin_terms(analyze("The text calls him gou jing. What is that word?"))
    a = real_retriever.ask('What does "zuo xing zhi" mean when they pass the cup around at the feast?')
    assert a.found and "坐行之" in a.hits[0].unit.jing and a.evidence[0].text.startswith("坐行之，若今坐相勸酒")


def test_lay_english_motion_reads_as_the_rites_verbs():
    """A verb of going with its direction is the 經's verb (walk in → 入, file out → 出): glossary rows, expansion only."""
    assert "入" in analyze("Why can't the officers walk in after that?").expansions
    assert "出" in analyze("When do the musicians file out?").expansions
    assert "旅酬" in analyze("What is the travelling toast?").expansions
    assert {"牲", "杀"} <= set(analyze("Which animal do they kill?").expansions)  # as 動物 → 牲 for Chinese


def test_the_books_title_is_no_pinyin_term(real_retriever):
    """"The Yili" is the book (儀禮), not 疑立 spelt in pinyin, and Fang Bao's "Xiyi" his 析疑, not 洗揖;
    "yi" alone still spells 揖."""
    b: Bridge = real_retriever.bridge
    assert {"yili", "xiyi", "yilixiyi", "yilizhushu"} <= b.titles
    assert b.pinyin_terms(analyze("In the Yili village drinking rite, who is the 'jie'?")) == ("介", "戒", "阶")
    assert b.pinyin_terms(analyze("In the Yi li, why does the host wash the cup?")) == ()
    assert b.pinyin_terms(analyze("What does the Yili Xiyi say about the zhi?")) == ("旨", "至", "觯")
    assert b.pinyin_terms(analyze("Why does the host yi three times?")) == ("揖",)
    a = real_retriever.ask("In the Yili village drinking rite, who is the 'jie'?")
    assert "其次為介" in a.evidence[0].text  # not 「疑，正立自定之貌」


def test_a_follow_up_carries_the_term_spelt_in_pinyin(real_retriever):
    """After "who is the 'jie'?", "where does he sit?" asks about the 介: the term the previous turn spelt
    in pinyin joins the carried context (the book's title does not)."""
    q = real_retriever.understand(analyze("ok and where does he sit?", history=["In the Yili village drinking rite, who is the 'jie'?"]))
    assert q.carried_words == ("yili", "jie") and "介" in q.context and "疑立" not in q.context
    alone = real_retriever.understand(analyze("ok and where does he sit?"))
    assert alone.carried_words == () and alone.context == ()
    a = real_retriever.ask("ok and where does he sit?", history=["In the Yili village drinking rite, who is the 'jie'?"])
    assert "zhushu.xiangyin.005" in [h.unit.id for h in a.hits[:5]]  # 介席西階上，東面


def test_a_possessive_ending_is_no_part_of_a_syllable(real_retriever):
    """"the jie's" spells 介 as "the jie" does."""
    b: Bridge = real_retriever.bridge
    assert "介" in b.pinyin_terms(analyze("And the jie's? Does he get less meat?"))
    assert "介" in b.pinyin_terms(analyze("And the jie’s portion?"))


def test_a_marked_syllable_spells_a_character_of_the_classic(real_retriever):
    """A syllable the reader quotes as a term ('bian') spells the 經's characters that read so, most frequent
    first, when no ritual term reads so; unquoted it does not, and a quoted syllable that is also an English word
    (qi) names no ritual term by itself."""
    b: Bridge = real_retriever.bridge
    assert b.jing_syllables["bian"][0] == "辩"
    q = analyze("Who does 'bian' (all round) cover at the end of the pledges?")
    assert "辩" in b.pinyin_terms(q) and b.names_ritual_term(q)
    assert b.pinyin_terms(analyze("Who does bian cover at the end of the pledges?")) == ()
    assert not b.names_ritual_term(analyze("How do I improve my 'qi' with tai chi?"))  # an English word (qi)
    one = analyze("What does 'bian' mean?")
    assert "辩" in b.pinyin_terms(one) and not b.names_ritual_term(one)  # one marked syllable alone names nothing


def test_a_quoted_syllable_is_pinyin_even_where_english_has_the_word(real_retriever):
    """"gong" is an English word, but quoted it is the reader's term: the 經's 工 (with the other readings); in
    brackets after the English it glosses ('duke' (gong)) it is that word's term alone."""
    b = real_retriever.bridge
    assert "工" in b.pinyin_terms(analyze('Who are the "gong" who are given mats at the top of the western steps?'))
    assert b.pinyin_terms(analyze("Who would count as a duke (gong) coming to watch?")) == ("公",)
    assert b.pinyin_terms(analyze("Why does the gong sound?")) == ()  # not quoted: the English word
    # a quoted phrase spells its term whole, though English drops "he" as a stopword
    assert b.pinyin_terms(analyze("What does 'he yue' — the combined music at the end — mean?")) == ("合乐",)
    # unquoted, beside a syllable English lacks, it spells the term the two spell together ('si gong': 司宫)
    assert b.pinyin_terms(analyze("Does Fang Bao accept that the si gong is a junior officer?")) == ("司宫",)


def test_a_transliteration_in_a_sense_is_no_english_word_and_a_syllable_names_a_person_first(real_retriever):
    """僵尸's sense "jiang shi" and 晚清's "the late qing" spell their own readings: shi and qing are no English words
    (gong, of 铜锣 "gong", is one); a bare syllable reads first as the person of the rite it spells (shi: 士)."""
    b = real_retriever.bridge
    assert not b.dictionary.is_english("shi") and not b.dictionary.is_english("qing") and b.dictionary.is_english("gong")
    assert b.pinyin_readings(analyze("Do the other shi bow too?"))[0][0] == "士"
    assert b.pinyin_readings(analyze("What do the qing get?"))[0][0] == "卿"
    assert b.pinyin_readings(analyze("Why does the guest say zhi?"))[0][0] == "旨"  # no person: the rarest first


def test_pinyin_with_tone_marks_is_a_word(real_retriever):
    """Pinyin typed with its tone marks or ü (xuánjiǔ, 'lǚshí') reads as the plain spelling, not as letters
    broken around a non-ASCII one."""
    from qa.text.tokens import pieces

    assert pieces("What is lǚshí?") == [("word", "what"), ("word", "is"), ("word", "lushi")]
    assert pieces("xuánjiǔ, café") == [("word", "xuanjiu"), ("word", "cafe")]
    assert pieces("賓為什麼說旨？") == [("cjk", "宾为什么说旨")]
    b: Bridge = real_retriever.bridge
    assert b.pinyin_terms(analyze("Why is the xuánjiǔ placed on the west?")) == ("玄酒",)
    marked = real_retriever.understand(analyze("Who are the 'lǚshí' at the lord's banquet?"))
    assert "旅食" in marked.expansions and b.names_ritual_term(marked)


def test_installed_cedict_is_read():
    d = cedict()
    assert len(d.senses_of) > 50_000
    assert "guest" in d.senses("宾")


def test_bridge_english_and_modern_words(real_retriever):
    b: Bridge = real_retriever.bridge
    # a modern word the corpus never writes reaches the corpus's term through its English sense
    assert "宾" in b.modern("客人")
    # English → characters only where the word is the headword's first sense, and the corpus uses it
    assert b.english("summon") == [] or all(t in b.idf for t in b.english("summon"))
    # the corpus's gloss 「旨，美也」 leads from 美 to 旨; 「相，扶工也」 from 扶 … 工 to 相
    assert "旨" in b.reached_glosses(["酒很美"])
    assert "相" in b.reached_glosses(["扶着乐工上台"])


def test_english_leads_only_where_the_first_sense_is_the_word_alone(real_retriever):
    b: Bridge = real_retriever.bridge
    # 缭's first sense is "to wind round", 再拜's "to bow again": two words, a stretch for "round" or "again"
    assert "缭" not in b.english("round") and "再拜" not in b.english("again")


def test_holding_an_occasion_is_convening_it_not_grasping(real_retriever):
    def bridged(text: str) -> tuple[str, ...]:
        return real_retriever.understand(analyze(text)).bridged

    # "held" of a rite (passive, or with an occasion for object) leads to no 持 (挎，持也 was the answer's first line)
    for text in ("How often was this village drinking ceremony actually held?", "When was the ceremony held?",
                 "If the duke holds the banquet for an envoy, how does it differ?", "Was it held every year?"):
        assert "持" not in bridged(text), text
    # grasping keeps it
    assert "持" in bridged("He held the cup in both hands") and "持" in bridged("Who is holding on to the musicians?")


def test_bridged_terms_are_marked_and_added_once(real_retriever):
    q = real_retriever.understand(analyze("扶着乐工上台的人是干什么的？"))
    assert "相" in q.bridged and q.understood
    assert real_retriever.understand(q) is q  # applied once


def test_compounds_count_how_much_modern_chinese_builds_with_a_character():
    d = cedict()
    assert d.compounds("水") > 100 and d.compounds("宾") > 20
    assert d.compounds("磬") <= 8 and d.compounds("篚") == 0


def test_a_rare_ritual_character_names_its_term_in_a_modern_question(real_retriever):
    """「为什么要敲磬？」 names 磬 (CC-CEDICT builds hardly any modern word with it): never refused;
    a common one (酒, 宾) or a rare one inside a modern word (果脯) names nothing by itself."""
    b: Bridge = real_retriever.bridge
    assert {"磬", "篚", "俎"} <= b.rare_chars and not {"酒", "宾", "曰"} & b.rare_chars
    assert b.names_ritual_term(real_retriever.understand(analyze("为什么要敲磬？")))
    assert real_retriever.ask("为什么要敲磬？").found
    assert not b.names_ritual_term(real_retriever.understand(analyze("果脯怎么做？")))
    assert not b.names_ritual_term(real_retriever.understand(analyze("这瓶酒多少钱？")))
    assert not real_retriever.ask("果脯怎么做？").found


def test_english_direction_and_number_words_name_no_topic(real_retriever):
    """Two glossary words make an English question name the rite, but not a direction or a number
    (right → 右, two → 二): they are as much everyday English as the rite's."""
    b: Bridge = real_retriever.bridge
    assert not b.names_ritual_term(real_retriever.understand(analyze("Do I turn right after I eat lunch?")))
    assert b.names_ritual_term(real_retriever.understand(analyze("Why does the guest bow to the right?")))


def test_an_english_glossary_phrase_counts_as_one_ritual_word(real_retriever):
    """"keep order" (司正) is a glossary phrase though neither word is one alone: with another
    glossary word it names the rite, so the question is answered, not refused."""
    b: Bridge = real_retriever.bridge
    q = real_retriever.understand(analyze("Why appoint someone to keep order halfway through?"))
    assert b.names_ritual_term(q)
    assert not b.names_ritual_term(real_retriever.understand(analyze("How do I keep order in my classroom?")))


def test_two_modern_words_the_glossary_maps_name_the_rite_in_chinese_as_in_english(real_retriever):
    """A Chinese question writing two modern words of the glossary (乐师 → 工, 喝酒 → 飲酒) is about the
    rite, as an English one with two glossary words is; one alone (音乐, 洗手) is not, and a question set
    in today's world stays unconfident whatever it borrows."""
    b = real_retriever.bridge

    def named(text: str) -> bool:
        return b.names_ritual_term(real_retriever.understand(analyze(text)))

    assert named("乐师喝酒的时候是站着的吗？")
    assert not named("乐师是什么人？") and not named("请问这附近哪里有干净的洗手间？")
    assert not real_retriever.ask("公司聚会喝酒的时候要站着敬酒吗？").found  # 公司: today's manners
    assert not real_retriever.ask("周末去听交响音乐会，穿什么比较合适？").found


def test_an_english_glossary_word_the_reader_quotes_is_marked_as_the_rite_s_term(real_retriever):
    """'gentleman' in quotation marks is the reader pointing at a term of the rite (君子): it counts as a
    second glossary word; the same word unquoted, alone, names nothing; a quoted word in a question about a
    rite the corpus lacks (a wedding: 士昏禮) is still told so."""
    b = real_retriever.bridge

    def named(text: str) -> bool:
        return b.names_ritual_term(real_retriever.understand(analyze(text)))

    assert named("Who counts as a 'gentleman' here?")
    assert not named("Who counts as a gentleman here?")
    assert not real_retriever.ask("What does 'toast' mean at a wedding?").found
