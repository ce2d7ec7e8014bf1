#include "reports/json/json_writer.h"

#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <simdjson.h>

namespace ampprof::reports {
namespace {

TEST(JsonWriter, WritesNestedValuesIndentedInTheOrderGiven) {
  std::ostringstream out;
  JsonWriter json(out);
  json.BeginObject().Field("b", int64_t{-3}).Field("a", "x");
  json.Key("list").BeginArray().Uint(1).Bool(false).Null().EndArray();
  json.Key("empty").BeginObject().EndObject();
  json.Key("none").BeginArray().EndArray();
  json.EndObject();
  EXPECT_TRUE(json.done());
  EXPECT_EQ(out.str(),
            "{\n"
            "  \"b\": -3,\n"
            "  \"a\": \"x\",\n"
            "  \"list\": [\n"
            "    1,\n"
            "    false,\n"
            "    null\n"
            "  ],\n"
            "  \"empty\": {},\n"
            "  \"none\": []\n"
            "}\n");
}

TEST(JsonWriter, DoublesReadBackExactlyAndStayDoubles) {
  std::ostringstream out;
  JsonWriter json(out);
  json.BeginArray().Double(0.1).Double(1.0).Double(2.0 / 3.0).Double(1e-300).Double(0.0 / 0.0).EndArray();
  EXPECT_EQ(out.str(), "[\n  0.1,\n  1.0,\n  0.6666666666666666,\n  1e-300,\n  null\n]\n");
}

TEST(JsonWriter, EscapesStringsAndRepairsInvalidUtf8) {
  std::ostringstream out;
  JsonWriter json(out);
  const std::string text = std::string("quote \" backslash \\ tab \t nl \n nul ") + '\0' + " bell \x07 é \xff end";
  json.BeginObject().Field("k\"ey", std::string_view(text)).EndObject();
  EXPECT_EQ(out.str(), "{\n  \"k\\\"ey\": \"quote \\\" backslash \\\\ tab \\t nl \\n nul \\u0000 bell \\u0007 é \xEF\xBF\xBD end\"\n}\n");
  // And a strict parser reads it back to the same text, less the byte that was not UTF-8.
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  ASSERT_EQ(parser.parse(simdjson::padded_string(out.str())).get(doc), simdjson::SUCCESS);
  std::string_view value;
  ASSERT_EQ(doc["k\"ey"].get_string().get(value), simdjson::SUCCESS);
  EXPECT_EQ(value, std::string("quote \" backslash \\ tab \t nl \n nul ") + '\0' + " bell \x07 é \xEF\xBF\xBD end");
}

TEST(JsonWriter, RejectsTruncatedAndOverlongUtf8) {
  for (const std::string& bad : {std::string("\xC3"), std::string("\xE2\x82"), std::string("\xC0\xAF"),
                                std::string("\xED\xA0\x80"), std::string("\xF4\x90\x80\x80")}) {
    std::ostringstream out;
    JsonWriter(out).String(bad);
    simdjson::dom::parser parser;
    simdjson::dom::element doc;
    EXPECT_EQ(parser.parse(simdjson::padded_string(out.str())).get(doc), simdjson::SUCCESS) << out.str();
  }
}

TEST(JsonWriterDeathTest, MisuseIsABug) {
  EXPECT_DEATH(
      {
        std::ostringstream out;
        JsonWriter json(out);
        json.BeginObject().Int(1);
      },
      "needs its key");
  EXPECT_DEATH(
      {
        std::ostringstream out;
        JsonWriter json(out);
        json.BeginArray().EndObject();
      },
      "unbalanced");
}

}  // namespace
}  // namespace ampprof::reports
