import Foundation
import Testing
@testable import CKSchema
@testable import CKSchemaModel

/// A plan file is parsed once, by `JSONValue.parse` (numbers bounded), and decoded from that
/// value (`JSONValue.decode`): the errors its diagnostics are made of (a missing key, the
/// coding path of a bad value) are those `JSONDecoder` gave from the text.
@Suite struct JSONValueDecoderTests {
    /// What a plan's diagnostic says of a decoding error (`PromotionPlan.describe`'s cases).
    static func verdict(_ body: () throws -> PromotionPlan) -> String {
        do {
            let plan = try body()
            return "ok \(plan.steps.count) \(plan.fromHash)"
        } catch let DecodingError.keyNotFound(key, _) {
            return "missing \(key.stringValue)"
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context), let DecodingError.dataCorrupted(context) {
            return "bad " + context.codingPath.map(\.stringValue).joined(separator: ".")
        } catch {
            return "other \(error)"
        }
    }

    /// A real plan's JSON with `edit` applied to its object.
    static func plan(_ edit: (inout [String: Any]) -> Void) throws -> Data {
        let data = PromotionPlan.compute(from: PromoteFixtures.production(), to: PromoteFixtures.developmentField("count") { $0.type = FieldType(.string) }).jsonData
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        edit(&object)
        return try JSONSerialization.data(withJSONObject: object)
    }

    static func editStep(_ object: inout [String: Any], _ edit: (inout [String: Any]) -> Void) {
        guard var steps = object["steps"] as? [[String: Any]], !steps.isEmpty else { return }
        edit(&steps[0])
        object["steps"] = steps
    }

    static func editChange(_ object: inout [String: Any], _ edit: (inout [String: Any]) -> Void) {
        editStep(&object) { step in
            guard var change = step["change"] as? [String: Any] else { return }
            edit(&change)
            step["change"] = change
        }
    }

    static let edits: [(name: String, edit: @Sendable (inout [String: Any]) -> Void)] = [
        ("as written", { _ in }),
        ("no from", { $0["from"] = nil }),
        ("no stepsSha256", { $0["stepsSha256"] = nil }),
        ("stepsSha256 null", { $0["stepsSha256"] = NSNull() }),
        ("to's hash a number", { $0["to"] = ["sha256": 5] }),
        ("from a list", { $0["from"] = ["a"] }),
        ("steps an object", { $0["steps"] = [String: Any]() }),
        ("a step null", { $0["steps"] = [NSNull()] }),
        ("a step without its class", { editStep(&$0) { $0["class"] = nil } }),
        ("a class no class", { editStep(&$0) { $0["class"] = "risky" } }),
        ("a fix a number", { editStep(&$0) { $0["fix"] = 7 } }),
        ("a change's kind unknown", { editChange(&$0) { $0["kind"] = "rewrite" } }),
        ("a change's system flag a string", { editChange(&$0) { $0["isSystemField"] = "yes" } }),
        ("a change's location without its file", { editChange(&$0) { $0["location"] = ["line": 1, "column": 1] } }),
        ("a change's location line whole", { editChange(&$0) { $0["location"] = ["file": "a.yaml", "line": 2.0, "column": 1] } }),
    ]

    @Test(arguments: edits.indices)
    func decodingFromTheParsedValueFailsAsJSONDecoderDoes(_ index: Int) throws {
        let data = try Self.plan(Self.edits[index].edit)
        let theirs = Self.verdict { try JSONDecoder().decode(PromotionPlan.self, from: data) }
        let ours = Self.verdict { try JSONValue.parse(data).decode(PromotionPlan.self) }
        #expect(ours == theirs, "\(Self.edits[index].name)")
    }

    /// A fraction where an integer belongs is a bad value at its member. (Foundation's
    /// `JSONDecoder` on Linux gives that error no coding path, so the old plan reader's message
    /// named no member there; this one names it.)
    @Test func aFractionForAnIntegerIsABadValueAtItsMember() throws {
        let data = try Self.plan { Self.editChange(&$0) { $0["location"] = ["file": "a.yaml", "line": 1.5, "column": 1] } }
        #expect(Self.verdict { try JSONValue.parse(data).decode(PromotionPlan.self) } == "bad steps.Index 0.change.location.line")
    }

    /// A number no 64-bit integer or finite double holds is an error at its place when
    /// bounded, with the member path a reviewer reads; unbounded, it is read as a double.
    @Test func boundedNumbersAreLocatedWithTheirMemberPath() throws {
        let text = #"{"a": [1, {"b": 1e400}], "c": 2}"#
        do {
            _ = try JSONValue.parse(Data(text.utf8), boundedNumbers: true)
            Issue.record("1e400 was read")
        } catch {
            #expect(error.number == "1e400")
            #expect(error.memberPath == "a[1].b")
            #expect(error.offset == 16)
        }
        #expect(try JSONValue.parse(text)["a"]?.arrayValue?[1]["b"] == .double(.infinity))
        do {
            _ = try JSONValue.parse(Data("[[0, -99999999999999999999]]".utf8), boundedNumbers: true)
            Issue.record("an integer beyond 64 bits was read")
        } catch {
            #expect(error.number == "-99999999999999999999" && error.memberPath == "[0][1]")
        }
        // In range: every integer of 64 bits, and doubles.
        #expect(try JSONValue.parse(Data("[9223372036854775807, -9223372036854775808, 1.5e300]".utf8), boundedNumbers: true)
                == .array([.int(Int64.max), .int(Int64.min), .double(1.5e300)]))
        // A syntax error has no number; its path is where it stands.
        do {
            _ = try JSONValue.parse(Data(#"{"steps": [{"index": }]}"#.utf8), boundedNumbers: true)
            Issue.record("malformed JSON was read")
        } catch {
            #expect(error.number == nil && error.memberPath == "steps[0].index")
        }
    }
}
