import Foundation
import Testing
@testable import CKSchemaRecords

/// The tokenizer's fast path (JSONTape+Fast.swift) against its general path, the reference:
/// for every line they must leave the same tape, or the same error at the same offset.
@Suite struct JSONTapeFastPathTests {
    /// Compares both paths on `bytes` (the same error, or the same tape token for token);
    /// returns whether the fast path kept the line.
    @discardableResult
    static func same(_ bytes: [UInt8], _ fast: inout JSONTape, _ general: inout JSONTape, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let difference = bytes.withUnsafeBufferPointer { b in
            // An empty line still needs an address to read from (its error is "empty record").
            JSONTape.disagreement(b.baseAddress ?? UnsafePointer(bitPattern: 1)!, b.count, fast: &fast, general: &general)
        }
        #expect(difference == nil, "\(difference ?? ""): \(String(decoding: bytes.prefix(200), as: UTF8.self))", sourceLocation: sourceLocation)
        return fast.lastParseWasFast
    }

    static func fixtureLines() throws -> [[UInt8]] {
        let folder = Paths.fixture("records")
        var lines: [[UInt8]] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: folder).sorted() {
            let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))
            if name.hasSuffix(".ndjson") {
                lines += data.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
            } else if name.hasSuffix(".json") {
                lines.append(data)
            }
        }
        return lines
    }

    /// Every line of every records fixture, whole and cut at every byte (a truncated record).
    @Test func everyFixtureLineAndEveryPrefixOfIt() throws {
        var fast = JSONTape(), general = JSONTape()
        var kept = 0, lines = 0
        for line in try Self.fixtureLines() {
            lines += 1
            if Self.same(line, &fast, &general) { kept += 1 }
            for cut in stride(from: 0, to: line.count, by: 1) { Self.same(Array(line[..<cut]), &fast, &general) }
        }
        // Not a vacuous comparison: the fast path keeps most fixture lines.
        #expect(lines > 300 && kept * 2 > lines, "the fast path kept \(kept) of \(lines) lines")
    }

    static let record = Array(#"{"recordName":"wp-1","recordType":"Waypoint","zoneID":{"zoneName":"Journal"},"fields":{"trip":{"value":{"recordName":"trip-1","action":"DELETE_SELF"},"type":"REFERENCE"},"position":{"value":{"latitude":-29.851608,"longitude":-53.97685},"type":"LOCATION"},"heartRates":{"value":[144,86,72],"type":"INT64_LIST"},"ok":{"value":true},"no":false,"none":null,"e":{},"l":[],"label":{"value":"trail é 😀 short","type":"STRING"}}}"#.utf8)

    /// The sample record with each byte replaced by each of the bytes that steer a parser.
    @Test func everyByteOfARecordReplaced() {
        var fast = JSONTape(), general = JSONTape()
        let bytes: [UInt8] = [0x00, 0x09, 0x0A, 0x0D, 0x20, 0x22, 0x5C, 0x7B, 0x7D, 0x5B, 0x5D, 0x2C, 0x3A, 0x2D, 0x2E, 0x30, 0x31, 0x65, 0x45,
                              0x2B, 0x74, 0x6E, 0x4E, 0x49, 0x7F, 0x80, 0xBF, 0xC3, 0xE0, 0xED, 0xF0, 0xF4, 0xFF]
        var kept = 0
        for k in Self.record.indices {
            for b in bytes where b != Self.record[k] {
                var line = Self.record
                line[k] = b
                if Self.same(line, &fast, &general) { kept += 1 }
            }
        }
        #expect(kept > 0)
    }

    @Test(arguments: [
        // Escapes (the fast path gives them to the general path) and Unicode it reads itself.
        #"{"a":"x\"y","b\n":"\u00e9\ud83d\ude00","c":"\/"}"#, #"{"a":"\ud800"}"#, #"{"a":"\u12"}"#, #"{"a":"\q"}"#,
        #"{"é":"ü","😀":["ꙮ"]}"#, "{\"a\":\"\u{7F}\"}",
        // Control bytes, inside strings and out.
        "{\"a\":\"x\u{01}y\"}", "{\"a\":\"x\ty\"}", "{\"a\":1}\u{0}", "\u{0}{\"a\":1}", "{\"a\":\u{0}1}", "{\"a\":\"\u{0}\"}",
        // Whitespace everywhere, CRLF, a BOM.
        " \t\r\n{ \"a\" : [ 1 , { } , [ ] , \"s\" ] , \"b\" : { \"c\" : null } } \r\n", "{\"a\":1}\r", "\u{FEFF}{\"a\":1}",
        // Numbers at the limits.
        #"[9223372036854775807,-9223372036854775808,9223372036854775808,-9223372036854775809,99999999999999999999]"#,
        #"[0,-0,0.0,-0.0e-0,1E+2,1e400,-1e-400,123456789012345678901234567890.5]"#,
        "[01]", "[-]", "[1.]", "[1e]", "[.5]", "[+1]", "[-I]", "[NaN]", "[Infinity]", "[1,]", "[,1]", "{\"a\":1,}", "{,}",
        // Literals, whole and cut.
        "[true,false,null]", "[tru]", "[nul", "[falsey]", "tru", "null", "\"top\"", "12", "",  " ",
        // Duplicate keys, by hash and not, and more keys than are hashed.
        #"{"a":1,"a":2}"#, #"{"abcdefghXijklmnopq":1,"abcdefghYijklmnopq":2}"#, #"{"v":{"a":1},"w":{"a":1}}"#,
        "{" + (0..<40).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}",
        "{" + (0..<40).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + ",\"k3\":0}",
        // Truncated and unbalanced.
        #"{"a":"#, #"{"a""#, #"{"a"#, #"{""#, "{", "[", "]", "}", #"{"a":1]"#, #"[1}"#, #"{"a":1}}"#, #"{"a":1} x"#, #"{"a" 1}"#, #"{1:2}"#,
        // Deep nesting: below, at and above the limit.
        String(repeating: "[", count: 63) + String(repeating: "]", count: 63),
        String(repeating: "[", count: 64) + String(repeating: "]", count: 64),
        String(repeating: "[", count: 65) + String(repeating: "]", count: 65),
        String(repeating: "{\"a\":", count: 64) + "1" + String(repeating: "}", count: 64),
        // A tape longer than its first allocation (256 tokens): the fast path hands it over.
        "[" + Array(repeating: "1", count: 1000).joined(separator: ",") + "]",
    ])
    func trickyInputs(doc: String) {
        var fast = JSONTape(), general = JSONTape()
        Self.same(Array(doc.utf8), &fast, &general)
        // Again on used tapes: what one line leaves must not change the next.
        Self.same(Self.record, &fast, &general)
        Self.same(Array(doc.utf8), &fast, &general)
    }

    /// Invalid UTF-8 in strings (overlong, surrogates, beyond U+10FFFF, cut sequences) and raw.
    @Test(arguments: [[0xC0, 0x80], [0xC3], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF0, 0x9F, 0x98], [0xFF], [0x80]] as [[UInt8]])
    func invalidUTF8(bytes: [UInt8]) {
        var fast = JSONTape(), general = JSONTape()
        Self.same(Array(#"{"a":""#.utf8) + bytes + Array(#""}"#.utf8), &fast, &general)
        Self.same(Array(#"{"a":""#.utf8) + bytes, &fast, &general)
        Self.same(Array(#"{"a":"#.utf8) + bytes + Array("}".utf8), &fast, &general)
    }

    /// Plain records are read by the fast path; an escape sends a line to the general one.
    @Test func whichPathReadsWhat() {
        var tape = JSONTape()
        _ = Self.record.withUnsafeBufferPointer { tape.parse($0.baseAddress!, $0.count) }
        #expect(tape.lastParseWasFast)
        let escaped = Array(#"{"a":"x\"y"}"#.utf8)
        _ = escaped.withUnsafeBufferPointer { tape.parse($0.baseAddress!, $0.count) }
        #expect(!tape.lastParseWasFast)
    }

    /// Random documents built from JSON's pieces, each compared on both paths.
    @Test func randomDocuments() {
        var fast = JSONTape(), general = JSONTape()
        let pieces = ["{", "}", "[", "]", ",", ":", "\"k\"", "\"", "\\", "1", "-0.5e3", "true", "null", " ", "\r\n", "é", "\u{1}", "\"x\":"]
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<5000 {
            var doc = ""
            for _ in 0..<Int.random(in: 0...24, using: &rng) { doc += pieces.randomElement(using: &rng)! }
            Self.same(Array(doc.utf8), &fast, &general)
        }
    }
}
