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

/// The one string-unescape routine behind both JSON readers (`JSONTape` + `RecordChecker`
/// for `validate`, `JSONValue` for the store).
@Suite struct JSONStringTests {
    static let escaped = [
        #"plain"#, #"x\"y\\z\/w"#, #"\b\f\n\r\t"#, #"\u00e9\u00E9"#, #"\ud83d\ude00 smile"#, #"tab\u0009end"#, #"caf\u00e9 \u4e2d"#,
    ]

    /// Both readers decode a string's escapes to the same text, and it is what Foundation reads.
    @Test(arguments: escaped) func bothReadersDecodeAlike(_ body: String) throws {
        let doc = "\"" + body + "\""
        let foundation = try #require(try JSONSerialization.jsonObject(with: Data(doc.utf8), options: .fragmentsAllowed) as? String)
        #expect(try JSONValue.parse(doc).stringValue == foundation)
        let bytes = Array(body.utf8)
        let checker = bytes.withUnsafeBufferPointer { RecordChecker.text($0.baseAddress!, 0, $0.count, escaped: true) }
        #expect(checker == foundation)
    }

    /// The store's strict mode refuses what the checker's tape lets through, at the same offsets as before.
    @Test func strictModeRejectsLoneSurrogatesAndBadEscapes() {
        func error(_ doc: String) -> JSONValue.ParseError? {
            do { _ = try JSONValue.parse(doc); return nil } catch { return error }
        }
        #expect(error(#""a\ud83dx""#)?.message == "lone surrogate")
        #expect(error(#""a\ud83dx""#)?.offset == 8)
        #expect(error(#""\ude00""#)?.message == "lone surrogate")
        #expect(error(#""a\qb""#)?.message == "invalid escape")
        #expect(error(#""a\qb""#)?.offset == 4)
        #expect(error(#""\u12G4""#)?.message == #"invalid \u escape"#)
        #expect(error(#""\u12G4""#)?.offset == 5)
        #expect(error("\"a\\n\u{01}\"")?.message == "control character in a string")
        #expect(error(#""a\n"#)?.message == "unterminated string")
        #expect(error(#""a\"#)?.offset == 3)
    }

    /// The checker's lenient mode never fails: a lone low surrogate becomes U+FFFD and a
    /// high surrogate without its partner is dropped.
    @Test func lenientModeKeepsGoing() {
        func text(_ body: String) -> String {
            Array(body.utf8).withUnsafeBufferPointer { RecordChecker.text($0.baseAddress!, 0, $0.count, escaped: true) }
        }
        #expect(text(#"a\ude00b"#) == "a\u{FFFD}b")
        #expect(text(#"a\ud83db"#) == "ab")
    }
}
