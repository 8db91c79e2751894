// From answers to bot folders: languages, names, collisions, and what importing again changes
// (nothing for unchanged answers, only an edited answer's bot, deleted answers kept or pruned).
#include "runner/import/answer_import.hpp"
#include "runner/bots/bot.hpp"
#include "runner/bots/content_hash.hpp"
#include "runner/sys/temp_dir.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <iterator>

using namespace gol::runner;
namespace fs = std::filesystem;

namespace {

std::vector<Answer> saved_answers() {
    std::ifstream in(fs::path(IMPORT_ANSWERS_DIR) / "six_languages.json", std::ios::binary);
    REQUIRE(in);
    return parse_answer_page(std::string(std::istreambuf_iterator<char>(in), {}), "six_languages.json").answers;
}

Answer answer(std::int64_t id, const std::string& body) {
    Answer a;
    a.answer_id = id;
    a.question_id = 7;
    a.body = body;
    return a;
}

// The bot.json an answer becomes, or why it is none.
std::string manifest_of(const std::string& header, const std::string& code = "x") {
    const auto made = answer_bot(answer(1, "<h1>" + header + "</h1><pre><code>" + code + "</code></pre>"));
    if (const NotABot* no = std::get_if<NotABot>(&made)) return no->why;
    return std::get<AnswerBot>(made).files.at(1).contents;
}

std::string read_text(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

const ImportRow& row_of(const ImportPlan& plan, std::int64_t id) {
    for (const ImportRow& row : plan.rows)
        if (row.answer_id == id) return row;
    FAIL("no row for answer " << id);
    throw std::logic_error("unreachable");
}

ImportSource source() { return {"codegolf", 111111, true}; }

}  // namespace

TEST_CASE("answer import: each language's command, from 2016's list and the runner's own") {
    CHECK(manifest_of("Python 3, A") == "{\"run\":[\"python3\",\"bot.py\"]}\n");
    CHECK(manifest_of("Python 3.5, A") == "{\"run\":[\"python3\",\"bot.py\"]}\n");
    CHECK(manifest_of("Python, A") == "{\"run\":[\"python3\",\"bot.py\"]}\n");
    CHECK(manifest_of("Python 2.7, A") == "{\"run\":[\"python2\",\"bot.py\"]}\n");
    CHECK(manifest_of("ruby, A") == "{\"run\":[\"ruby\",\"bot.rb\"]}\n");
    CHECK(manifest_of("Node.js, A") == "{\"run\":[\"node\",\"bot.js\"]}\n");
    CHECK(manifest_of("JavaScript (Node.js), A") == "{\"run\":[\"node\",\"bot.js\"]}\n");
    CHECK(manifest_of("C, A") == "{\"build\":\"gcc -O2 -o bot bot.c -lm\",\"run\":[\"./bot\"]}\n");
    CHECK(manifest_of("C++11, A") == "{\"build\":\"g++ -O2 -o bot bot.cpp\",\"run\":[\"./bot\"]}\n");
    CHECK(manifest_of("Bash, A") == "{\"run\":[\"bash\",\"bot.sh\"]}\n");
    CHECK(manifest_of("sh, A") == "{\"run\":[\"sh\",\"bot.sh\"]}\n");
    CHECK(manifest_of("Perl 5, A") == "{\"run\":[\"perl\",\"bot.pl\"]}\n");
    CHECK(manifest_of("AWK, A") == "{\"run\":[\"awk\",\"-f\",\"bot.awk\"]}\n");
    CHECK(manifest_of("R, A") == "{\"run\":[\"Rscript\",\"bot.R\"]}\n");
    CHECK(manifest_of("CoffeeScript, A") == "{\"run\":[\"coffee\",\"bot.coffee\"]}\n");
    // The wrong way round still reads.
    CHECK(manifest_of("A, Ruby") == "{\"run\":[\"ruby\",\"bot.rb\"]}\n");
    // Not guessed.
    CHECK(manifest_of("C#, A").starts_with("unknown language \"C#\" (known: Python 2, Python 3, Ruby"));
    CHECK(manifest_of("Brainfuck, A").starts_with("unknown language \"Brainfuck\""));
    // Every command answer_bot writes is a manifest the runner reads.
    const auto made = answer_bot(answer(1, "<h1>Ruby, A</h1><pre><code>p 1</code></pre>"));
    CHECK(parse_manifest(std::get<AnswerBot>(made).files.at(1).contents, "A").run.at(0) == "ruby");
}

TEST_CASE("answer import: a Java bot's file is named for its public class, which javac builds") {
    const auto made = answer_bot(answer(1, "<h1>Java, Gun</h1><pre><code>import java.util.*;\n// a class Foo\n"
                                           "class Helper {}\npublic class Glider { }\n</code></pre>"));
    const AnswerBot& bot = std::get<AnswerBot>(made);
    CHECK(bot.files.at(0).name == "Glider.java");
    const BotSpec spec = parse_manifest(bot.files.at(1).contents, "Gun");
    CHECK(spec.build == "javac Glider.java");
    CHECK(spec.run.back() == "Glider");
    CHECK(manifest_of("Java, A", "int x;") == "Java code without a class");
}

TEST_CASE("answer import: names keep letters and digits, and answers that are not bots say why") {
    const auto made = answer_bot(answer(1, "<h2>Python 3, Random Bot #2 (v3), extra</h2><pre><code>x</code></pre>"));
    CHECK(std::get<AnswerBot>(made).name == "RandomBot2v3");
    CHECK(std::get<AnswerBot>(answer_bot(answer(42, "<h2>Ruby, ☃</h2><pre><code>x</code></pre>"))).name == "answer42");
    auto why = [](const std::string& body) { return std::get<NotABot>(answer_bot(answer(1, body))).why; };
    CHECK(why("<pre><code>x</code></pre><p>Ruby, A</p>") == "no header: a code block comes before any text");
    CHECK(why("<p>Great question</p><pre><code>x</code></pre>") ==
          "no header: its first line, \"Great question\", is not \"Language, Bot name\"");
    CHECK(why("<p>Results, after a day</p><ol><li>A</li></ol>") == "no code block");
    CHECK(why("<h1>Ruby, A</h1><pre><code>  \n</code></pre>") == "no code block");
}

TEST_CASE("answer import: a saved response into a bots folder, then again: nothing changes") {
    TempDir dir("import-again");
    const fs::path bots = dir.path() / "bots";
    const ImportPlan first = plan_import(saved_answers(), bots, source(), false);
    CHECK(first.writes.size() == 7);
    CHECK(row_of(first, 90001).status == ImportStatus::imported);
    CHECK(row_of(first, 90001).bot == "RandomGliders");
    CHECK(row_of(first, 90003).bot == "LineDot");
    CHECK(row_of(first, 90003).detail == "Node.js");
    CHECK(row_of(first, 90004).status == ImportStatus::skipped);
    CHECK(row_of(first, 90006).detail == "no code block");
    CHECK(row_of(first, 90008).detail.starts_with("unknown language \"Brainfuck\""));
    // The younger Blocky gets its answer's id.
    CHECK(row_of(first, 90011).bot == "Blocky90011");
    CHECK(row_of(first, 90011).detail == "Python 3; the name Blocky is taken by answer 90002");
    apply_import(first, bots);

    // Each folder is a bot the runner reads, with its answer beside it.
    std::vector<Discovered> found = discover_bots(bots);
    REQUIRE(found.size() == 7);
    for (const Discovered& d : found) CHECK_MESSAGE(d.bot.has_value(), d.error);
    CHECK(read_text(bots / "Blinker" / "bot.c").starts_with("#include <stdio.h>\n"));
    const nlohmann::json record = nlohmann::json::parse(read_text(bots / "RandomGliders" / "answer.json"));
    CHECK(record["answer_id"] == 90001);
    CHECK(record["question_id"] == 111111);
    CHECK(record["author"] == "José Pérez");
    CHECK(record["score"] == 7);
    CHECK(record["last_activity_date"] == "2016-07-12T05:06:40Z");
    CHECK(record["site"] == "codegolf");

    const std::string hash = hash_directory(bots);
    const ImportPlan again = plan_import(saved_answers(), bots, source(), false);
    CHECK(again.writes.empty());
    CHECK(row_of(again, 90011).status == ImportStatus::unchanged);
    CHECK(row_of(again, 90011).bot == "Blocky90011");
    apply_import(again, bots);
    CHECK(hash_directory(bots) == hash);
}

TEST_CASE("answer import: an edited answer updates only its bot, and a new score alone changes nothing") {
    TempDir dir("import-edit");
    const fs::path bots = dir.path() / "bots";
    apply_import(plan_import(saved_answers(), bots, source(), false), bots);
    const std::string blocky = hash_directory(bots / "Blocky"), gliders = hash_directory(bots / "RandomGliders");

    std::vector<Answer> edited = saved_answers();
    for (Answer& a : edited) {
        if (a.answer_id == 90001) a.score = 50;  // voted up, not edited
        if (a.answer_id == 90002) a.body = "<h2>Perl, Blocky</h2><p>Now in Perl.</p><pre><code>print \"[]\\n\";</code></pre>";
    }
    const ImportPlan plan = plan_import(edited, bots, source(), false);
    CHECK(row_of(plan, 90001).status == ImportStatus::unchanged);
    CHECK(row_of(plan, 90002).status == ImportStatus::updated);
    CHECK(row_of(plan, 90002).bot == "Blocky");
    REQUIRE(plan.writes.size() == 1);
    apply_import(plan, bots);
    CHECK(hash_directory(bots / "RandomGliders") == gliders);
    CHECK(hash_directory(bots / "Blocky") != blocky);
    // Replaced whole: the Ruby source is gone, the folder reads as the Perl bot.
    CHECK_FALSE(fs::exists(bots / "Blocky" / "bot.rb"));
    CHECK(read_manifest(bots / "Blocky").run.at(0) == "perl");
    CHECK(nlohmann::json::parse(read_text(bots / "Blocky" / "answer.json"))["language"] == "Perl");
    // No staging folder is left behind.
    for (const auto& entry : fs::directory_iterator(bots)) CHECK_FALSE(entry.path().filename().string().starts_with("."));
}

TEST_CASE("answer import: a deleted answer is reported and kept, or removed with prune") {
    TempDir dir("import-deleted");
    const fs::path bots = dir.path() / "bots";
    apply_import(plan_import(saved_answers(), bots, source(), false), bots);
    std::vector<Answer> fewer = saved_answers();
    std::erase_if(fewer, [](const Answer& a) { return a.answer_id == 90005; });

    const ImportPlan kept = plan_import(fewer, bots, source(), false);
    CHECK(row_of(kept, 90005).status == ImportStatus::deleted);
    CHECK(row_of(kept, 90005).bot == "Blinker");
    CHECK(kept.rows.back().answer_id == 90005);  // after the answers
    apply_import(kept, bots);
    CHECK(fs::exists(bots / "Blinker" / "bot.c"));

    // Not from a part of the answers, nor of another question's.
    CHECK(plan_import(fewer, bots, {"codegolf", 111111, false}, true).removals.empty());
    CHECK(plan_import(fewer, bots, {"codegolf", 222222, true}, true).removals.empty());
    CHECK(plan_import(fewer, bots, {"codegolf", std::nullopt, true}, true).removals.empty());

    const ImportPlan pruned = plan_import(fewer, bots, source(), true);
    CHECK(row_of(pruned, 90005).status == ImportStatus::pruned);
    apply_import(pruned, bots);
    CHECK_FALSE(fs::exists(bots / "Blinker"));
    CHECK(fs::exists(bots / "Farmer"));
}

TEST_CASE("answer import: a name held by a bot of the folder is not taken, whatever its case") {
    TempDir dir("import-taken");
    const fs::path bots = dir.path() / "bots";
    fs::create_directories(bots);
    std::ofstream(bots / "farmer.py") << "print('[]')\n";
    const ImportPlan plan = plan_import(saved_answers(), bots, source(), false);
    CHECK(row_of(plan, 90007).bot == "Farmer90007");
    CHECK(row_of(plan, 90007).detail == "C++; the name Farmer is taken by the bot " + (bots / "farmer").string());
    // A bot imported before keeps its folder though its header is taken now.
    apply_import(plan, bots);
    CHECK(row_of(plan_import(saved_answers(), bots, source(), false), 90007).bot == "Farmer90007");
}

TEST_CASE("answer import: an answer that stops being a bot keeps the bot imported before") {
    TempDir dir("import-stopped");
    const fs::path bots = dir.path() / "bots";
    apply_import(plan_import(saved_answers(), bots, source(), false), bots);
    std::vector<Answer> edited = saved_answers();
    edited[1].body = "<h2>Ruby, Blocky</h2><p>Withdrawn.</p>";
    const ImportPlan plan = plan_import(edited, bots, source(), false);
    CHECK(row_of(plan, 90002).status == ImportStatus::skipped);
    CHECK(row_of(plan, 90002).bot == "Blocky");
    CHECK(row_of(plan, 90002).detail == "no code block; its bot is kept as imported before");
    CHECK(plan.writes.empty());
}

TEST_CASE("answer import: a suffixed name is checked against every name taken, suffixed ones too") {
    TempDir dir("import-suffixed");
    const fs::path bots = dir.path() / "bots";
    const std::vector<Answer> answers = {answer(50, "<h1>Python 3, Blocky</h1><pre><code>a</code></pre>"),
                                         answer(100, "<h1>Python 3, Blocky200</h1><pre><code>b</code></pre>"),
                                         answer(200, "<h1>Python 3, Blocky</h1><pre><code>c</code></pre>")};
    const ImportPlan plan = plan_import(answers, bots, source(), false);
    CHECK(row_of(plan, 100).bot == "Blocky200");
    CHECK(row_of(plan, 200).bot == "Blocky200_2");
    apply_import(plan, bots);
    CHECK(read_text(bots / "Blocky200" / "bot.py") == "b");
    CHECK(read_text(bots / "Blocky200_2" / "bot.py") == "c");
    // Imported again, each keeps its folder.
    const ImportPlan again = plan_import(answers, bots, source(), false);
    CHECK(row_of(again, 200).bot == "Blocky200_2");
    CHECK(row_of(again, 200).status == ImportStatus::unchanged);
    CHECK(row_of(again, 100).status == ImportStatus::unchanged);
}

TEST_CASE("answer import: one answer's failure is its row, the others are written") {
    TempDir dir("import-one-fails");
    const fs::path bots = dir.path() / "bots";
    const std::string long_class(300, 'J');
    std::vector<Answer> answers = saved_answers();
    answers.push_back(answer(95000, "<h1>Java, Long</h1><pre><code>public class " + long_class + " {}</code></pre>"));
    ImportPlan plan = plan_import(answers, bots, source(), false);
    CHECK(row_of(plan, 95000).status == ImportStatus::skipped);
    CHECK(row_of(plan, 95000).detail ==
          "its Java class's name, 300 letters, is too long for the file javac wants (at most 250)");

    // A folder the file system refuses fails alone, whatever the reason.
    const std::size_t farmer = static_cast<std::size_t>(&row_of(plan, 90007) - plan.rows.data());
    plan.writes.push_back({farmer, {"Refused", {{std::string(300, 'x'), "x"}}, "{}"}});
    plan = apply_import(std::move(plan), bots);
    CHECK(plan.rows.at(farmer).status == ImportStatus::skipped);
    CHECK(plan.rows.at(farmer).detail.starts_with("not written: "));
    CHECK_FALSE(fs::exists(bots / "Refused"));
    CHECK(fs::exists(bots / "Farmer" / "bot.cpp"));
    CHECK(fs::exists(bots / "RandomGliders" / "bot.py"));
}

TEST_CASE("answer import: answer.json is read only as a small regular file, never through a link") {
    TempDir dir("import-links");
    const fs::path bots = dir.path() / "bots";
    apply_import(plan_import(saved_answers(), bots, source(), false), bots);
    const std::size_t before = imported_folders(bots).size();
    // Links to files that never end or would block, and a record too big to be one.
    for (const char* target : {"/proc/self/pagemap", "/proc/kmsg", "/dev/zero"}) {
        const fs::path folder = bots / ("Linked" + fs::path(target).filename().string());
        fs::create_directories(folder);
        fs::create_symlink(target, folder / answer_file_name);
    }
    fs::create_directories(bots / "Huge");
    std::ofstream(bots / "Huge" / answer_file_name) << "{\"answer_id\": 1, \"pad\": \"" << std::string(100'000, ' ') << "\"}";
    fs::create_directory_symlink(bots / "Farmer", bots / "FarmerLink");
    CHECK(imported_folders(bots).size() == before);
}

TEST_CASE("answer import: answer.json holds what is known and invents nothing") {
    TempDir dir("import-known");
    const fs::path bots = dir.path() / "bots";
    Answer bare;
    bare.answer_id = 4242;
    bare.body = "<h1>Python 3, Bare</h1><pre><code>x</code></pre>";
    apply_import(plan_import({bare}, bots, {"codegolf", std::nullopt, true}, false), bots);
    const nlohmann::json record = nlohmann::json::parse(read_text(bots / "Bare" / "answer.json"));
    CHECK(record["answer_id"] == 4242);
    CHECK_FALSE(record.contains("question_id"));
    CHECK_FALSE(record.contains("last_activity_date"));
    CHECK_FALSE(record.contains("score"));
    CHECK_FALSE(record.contains("author"));
    // The question fetched is known though the answer does not say it.
    apply_import(plan_import({bare}, dir.path() / "fetched", {"codegolf", 5555, true}, false), dir.path() / "fetched");
    CHECK(nlohmann::json::parse(read_text(dir.path() / "fetched" / "Bare" / "answer.json"))["question_id"] == 5555);
}

TEST_CASE("answer import: the host's bot.local.json is the bot's bot.json, and import keeps it") {
    TempDir dir("import-local");
    const fs::path bots = dir.path() / "bots";
    apply_import(plan_import(saved_answers(), bots, source(), false), bots);
    const std::string mine = "{\"run\": [\"python3\", \"-u\", \"bot.py\"]}\n";
    std::ofstream(bots / "RandomGliders" / "bot.local.json") << mine;
    ImportPlan plan = plan_import(saved_answers(), bots, source(), false);
    CHECK(row_of(plan, 90001).status == ImportStatus::updated);
    CHECK(row_of(plan, 90001).detail == "Python 3; bot.json is the host's bot.local.json");
    apply_import(plan, bots);
    CHECK(read_text(bots / "RandomGliders" / "bot.json") == mine);
    CHECK(read_text(bots / "RandomGliders" / "bot.local.json") == mine);
    // Imported again: nothing to do, the host's manifest stays.
    CHECK(row_of(plan_import(saved_answers(), bots, source(), false), 90001).status == ImportStatus::unchanged);
    // One that is a link is not read, and said so.
    fs::remove(bots / "RandomGliders" / "bot.local.json");
    fs::create_symlink("/proc/self/pagemap", bots / "RandomGliders" / "bot.local.json");
    CHECK(row_of(plan_import(saved_answers(), bots, source(), false), 90001).detail ==
          "Python 3; not used: bot.local.json is a symbolic link, not a regular file");
}
