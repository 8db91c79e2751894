// What `runner import` reads in an answer's HTML: the header in any heading level or a bold
// paragraph, the first code block with its entities decoded, and answers that are not bots.
#include "runner/import/answer_html.hpp"

#include <doctest/doctest.h>

using namespace gol::runner;

TEST_CASE("answer html: the header is the first line, in any heading level or a bold paragraph") {
    CHECK(read_answer_html("<h1>Python 3, RandomBot</h1>\n<pre><code>x</code></pre>").header == "Python 3, RandomBot");
    CHECK(read_answer_html("<h2>Ruby, Blocky</h2><p>text</p>").header == "Ruby, Blocky");
    CHECK(read_answer_html("\n\n<h4> C,  Blinker </h4>").header == "C,  Blinker");
    CHECK(read_answer_html("<h1><strong>C++, Farmer</strong></h1>").header == "C++, Farmer");
    // A bold run that opens the paragraph, with what follows it left out.
    CHECK(read_answer_html("<p><strong>Perl, Camel</strong> walks about.</p>").header == "Perl, Camel");
    CHECK(read_answer_html("<p><b>sh, Quiet</b></p>").header == "sh, Quiet");
    // Bold that is not the whole header: the paragraph's first line.
    CHECK(read_answer_html("<p><strong>Python 3</strong>, Shy<br>\nsecond line</p>").header == "Python 3, Shy");
    // A plain paragraph's first line is the header, as 2016 read it.
    CHECK(read_answer_html("<p>Nice challenge!</p><h1>Python 3, Late</h1>").header == "Nice challenge!");
}

TEST_CASE("answer html: a code block before any text leaves no header") {
    const AnswerParts parts = read_answer_html("<pre><code>puts 1</code></pre>\n<p>Ruby, Shy</p>");
    CHECK_FALSE(parts.header.has_value());
    CHECK(parts.code == "puts 1");
    CHECK_FALSE(read_answer_html("<blockquote><pre>x</pre></blockquote><h1>Ruby, A</h1>").header.has_value());
    CHECK_FALSE(read_answer_html("").header.has_value());
}

TEST_CASE("answer html: the bot is the first code block, its entities decoded, and inline code is no block") {
    const AnswerParts parts = read_answer_html(
        "<h1>C, Bot</h1>\n<p>Compile with <code>gcc -O2</code>:</p>\n"
        "<pre><code>#include &lt;stdio.h&gt;\nint main() { if (1 &lt; 2 &amp;&amp; 3 &gt; 2) "
        "puts(&quot;[]&quot;); return &#39;\\0&#x27;; }\n</code></pre>\n"
        "<p>Output:</p>\n<pre><code>[]\n</code></pre>\n<blockquote><pre>third</pre></blockquote>");
    CHECK(parts.code == "#include <stdio.h>\nint main() { if (1 < 2 && 3 > 2) puts(\"[]\"); return '\\0'; }\n");
    CHECK(parts.code_blocks == 3);
    // Spaces and blank lines inside the code are kept as written.
    CHECK(read_answer_html("<h1>Python 3, A</h1><pre><code>if x:\n\n    y = 1\n</code></pre>").code ==
          "if x:\n\n    y = 1\n");
    // A code block inside a list or a quote counts too.
    CHECK(read_answer_html("<h1>Ruby, A</h1><ul><li><pre><code>p 1</code></pre></li></ul>").code == "p 1");
    const AnswerParts none = read_answer_html("<h1>Results, so far</h1><p>No <code>code</code> here.</p>");
    CHECK_FALSE(none.code.has_value());
    CHECK(none.code_blocks == 0);
}

TEST_CASE("answer html: html_text decodes a display name's entities") {
    CHECK(html_text("Jos&#233; P&#233;rez") == "José Pérez");
    CHECK(html_text("L&lt;3 &amp; co") == "L<3 & co");
    CHECK(html_text("plain") == "plain");
}
