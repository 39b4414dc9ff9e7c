import Foundation
import Testing
@testable import CKSchema
@testable import CKSchemaModel
@testable import CKSchemaDiagnostics
@testable import CKSchemaYAML
@testable import CKSchemaCKDB
@testable import CKSchemaCoreData
@testable import CKSchemaPredicate
@testable import CKSchemaLinter
@testable import CKSchemaDiff
@testable import CKSchemaConfig
@testable import CKSchemaRecords
@testable import CKSchemaCKTool
@testable import CKSchemaProduction
@testable import CKSchemaWire
@testable import CKSchemaStore
@testable import CKSchemaRuntime
@testable import CKSchemaMigrations
@testable import CKSchemaCheck

@Suite struct JSONTapeTests {
    /// The tokenizer agrees with Foundation's JSON parser on what is valid, for strings
    /// whose special bytes fall at every offset of the eight-byte fast path.
    @Test func agreesWithFoundationOnGeneratedStrings() {
        let pieces: [[UInt8]] = [
            Array("a".utf8), Array("\\\"".utf8), Array("\\\\".utf8), Array("\\n".utf8), Array("é".utf8), Array("😀".utf8),
            Array("\\u00e9".utf8), [0x01], [0xFF], [0xC3], Array("\\x".utf8), Array("\"".utf8), Array(" ".utf8),
        ]
        var rng = SystemRandomNumberGenerator()
        var tape = JSONTape()
        for _ in 0..<3000 {
            var body: [UInt8] = []
            for _ in 0..<Int.random(in: 0...20, using: &rng) {
                // Mostly plain bytes, so that the specials land at varied offsets.
                body += Int.random(in: 0..<3, using: &rng) == 0 ? pieces.randomElement(using: &rng)! : Array("abcdefgh".utf8.prefix(Int.random(in: 1...8, using: &rng)))
            }
            let doc: [UInt8] = Array(#"{"k":""#.utf8) + body + Array(#"","n":[1,-2.5e3,true,null]}"#.utf8)
            let ours = doc.withUnsafeBufferPointer { tape.parse($0.baseAddress!, $0.count) } == nil
            let theirs = (try? JSONSerialization.jsonObject(with: Data(doc))) != nil
            #expect(ours == theirs, "\(String(decoding: doc, as: UTF8.self))")
        }
    }

    @Test func tokensDescribeTheDocument() throws {
        var tape = JSONTape()
        let doc = Array(#" {"a": [1, "x\"y", {"b": null}], "c": 9223372036854775808} "#.utf8)
        let error = doc.withUnsafeBufferPointer { tape.parse($0.baseAddress!, $0.count) }
        #expect(error == nil)
        let t = tape.tokens
        #expect(t.count == 10)
        #expect(t[0].kind == .object && t[0].count == 2 && t[0].end == 10)
        #expect(t[2].kind == .array && t[2].count == 3 && t[2].end == 8)
        #expect(t[4].kind == .string && t[4].flags & JSONToken.escaped != 0)
        #expect(t[9].kind == .number && t[9].flags & JSONToken.overflow != 0)
    }

    @Test(arguments: [
        (#"{"a":1"#, "truncated"), (#"{"a":NaN}"#, "NaN"), (#"{"a":01}"#, "leading zeros"),
        (#"{"a":1}}"#, "after the record"), (#"{a:1}"#, "quoted key"), (String(repeating: "[", count: 100_000), "deeper than 64"),
    ])
    func errorsSayWhat(doc: String, says: String) {
        var tape = JSONTape()
        let bytes = Array(doc.utf8)
        let error = bytes.withUnsafeBufferPointer { tape.parse($0.baseAddress!, $0.count) }
        #expect(error?.message.contains(says) == true, "\(error?.message ?? "no error")")
    }

    @Test func typeTagsRoundTripThroughTheirEncoding() {
        for (spelling, tag) in TypeTag.all {
            let back = TypeTag(encoded: tag.encoded)
            #expect(back.primitive == tag.primitive && back.isList == tag.isList && back.isEncrypted == tag.isEncrypted, "\(spelling)")
            let found = Array(spelling.utf8).withUnsafeBufferPointer { TypeTag.table.lookup($0.baseAddress!, $0.count) }
            // The table also marks the Web Services spellings (CK420's records/modify shape).
            #expect(found & ~TypeTag.webServicesSpelling == tag.encoded, "\(spelling)")
            #expect((found & TypeTag.webServicesSpelling != 0) == spelling.first!.isUppercase, "\(spelling)")
        }
        #expect(TypeTag.all.count == 78)  // 10 Web Services and 9 cktool types, each plain, list, encrypted, encrypted list; two empty lists
    }

    /// Duplicate keys are found while parsing by the keys' hashes (length and first and last
    /// eight bytes), then confirmed byte for byte: keys of every length class, keys that share
    /// their hash but differ in the middle, escaped spellings of one key, objects of more keys
    /// than are hashed, and the same key at different depths or in sibling objects.
    @Test(arguments: [
        (#"{"a":1,"a":2}"#, "'a' appears twice", 7),
        (#"{"abcdefg":1,"abcdefg":2}"#, "'abcdefg' appears twice", 13),
        (#"{"abcdefgh":1,"abcdefgh":2}"#, "'abcdefgh' appears twice", 14),
        (#"{"abcdefghijklmnop":1,"abcdefghijklmnop":2}"#, "'abcdefghijklmnop' appears twice", 22),
        (#"{"x":0,"abcdefghXijklmnopq":1,"y":{"z":[1,{"k":2}]},"abcdefghXijklmnopq":2}"#, "'abcdefghXijklmnopq' appears twice", 52),
        (#"{"abcdefghXijklmnopq":1,"abcdefghYijklmnopq":2}"#, nil, 0),
        (#"{"value":1,"\u0076alue":2}"#, "'value' appears twice", 11),
        (#"{"v":{"a":1,"b":2},"w":{"a":1,"b":2},"a":{"a":{"a":3}}}"#, nil, 0),
        (#"{"v":{"a":1,"b":2},"w":{"b":1,"b":2}}"#, "'b' appears twice", 30),
        ("{" + (0..<40).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}", nil, 0),
        ("{" + (0..<40).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + ",\"k3\":0}", "'k3' appears twice", 341),
        ("{" + (0..<32).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + ",\"k31\":0}", "'k31' appears twice", 269),
        ("{" + (0..<31).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + ",\"k30\":0}", "'k30' appears twice", 260),
    ] as [(String, String?, Int)])
    func duplicateKeysAreFoundAndOnlyThem(doc: String, says: String?, offset: Int) {
        var tape = JSONTape()
        let bytes = Array(doc.utf8)
        let error = bytes.withUnsafeBufferPointer { tape.parse($0.baseAddress!, $0.count) }
        if let says {
            #expect(error?.message.contains(says) == true, "\(error?.message ?? "no error")")
            #expect(error?.offset == offset, "the second key's opening quote: \(bytes.count)")
        } else {
            #expect(error == nil, "\(error?.message ?? "")")
        }
    }
}
