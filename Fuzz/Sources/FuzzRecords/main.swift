import Foundation
import FuzzDriver
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

/// A schema with every field type, so that every value check is reachable.
let schemaText = """
    ckschema: 1
    zones:
      Notes: { database: private, capabilities: [fetchChanges, atomic] }
    recordTypes:
      Note:
        zone: Notes
        fields:
          title: { type: string, indexes: [queryable] }
          views: int64
          ratio: double
          amount: number<int64>
          seen: timestamp
          blob: bytes
          place: location
          owner: { type: reference, to: Note }
          others: list<reference>
          cover: asset
          tags: list<string>
          times: list<timestamp>
          secret: { type: string, encrypted: true }
          old: { type: string, deprecated: true }

    """
let schema = try! SchemaSource.parseYAML(Data(schemaText.utf8), file: "fuzz-schema.yaml").schema
let compiled = CompiledSchema(schema)
nonisolated(unsafe) var production = RecordChecker(schema: compiled, production: true, collectBatch: true)
nonisolated(unsafe) var development = RecordChecker(schema: compiled, production: false, collectBatch: false)
let note = schema.recordType(named: "Note")!
/// `validate`'s fused path and the general path, in pairs (production with `--batch`,
/// development without).
nonisolated(unsafe) var fusedProduction = RecordChecker(schema: compiled, production: true, collectBatch: true, keepsTokens: false)
nonisolated(unsafe) var generalProduction = RecordChecker(schema: compiled, production: true, collectBatch: true)
nonisolated(unsafe) var fusedDevelopment = RecordChecker(schema: compiled, production: false, collectBatch: false, keepsTokens: false)
nonisolated(unsafe) var generalDevelopment = RecordChecker(schema: compiled, production: false, collectBatch: false)
nonisolated(unsafe) var fastTape = JSONTape()
nonisolated(unsafe) var generalTape = JSONTape()

/// The tokenizer's two paths against each other, `validate`'s fused path against the tape and
/// the general checks, the record checker (`validate`) in both
/// environments, `records import`'s reading of its token tape, then the store's conversion of
/// every value, which once trapped on a timestamp of 1e19.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRecords(_ start: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let p = start
    // The tokenizer's fast path and its general path leave the same tape or the same error.
    if let difference = JSONTape.disagreement(p, count, fast: &fastTape, general: &generalTape) { fatalError(difference) }
    // The fused path and the general path leave the same findings and effects.
    if let difference = RecordChecker.disagreement(p, count, fused: &fusedProduction, general: &generalProduction) { fatalError(difference) }
    if let difference = RecordChecker.disagreement(p, count, fused: &fusedDevelopment, general: &generalDevelopment) { fatalError(difference) }
    // In place, as `validate` reads a block: the input again after it, then bytes to spare that
    // are not zeros; the result is the general path's and the block is left as it was.
    var block = [UInt8](UnsafeBufferPointer(start: p, count: count)) + [0x0A] + [UInt8](UnsafeBufferPointer(start: p, count: count))
        + [UInt8](repeating: 0x22, count: JSONTape.padding)
    let before = block
    var inPlace = ChunkResult(), reference = ChunkResult()
    block.withUnsafeMutableBufferPointer { b in
        _ = fusedProduction.check(inPlace: b.baseAddress!, count, index: 0, position: .bytes(line: 0, column: 1), into: &inPlace)
    }
    generalProduction.check(p, count, index: 0, position: .bytes(line: 0, column: 1), into: &reference)
    if inPlace.everything != reference.everything { fatalError("in place: \(inPlace.everything) against \(reference.everything)") }
    if block != before { fatalError("the in-place check left the block changed") }
    var r = ChunkResult()
    production.check(p, count, index: 0, position: .bytes(line: 0, column: 1), into: &r)
    if development.check(p, count, index: 0, position: .bytes(line: 0, column: 1), into: &r) {
        // `records import`'s reading of the same tape: every value, decoded strictly.
        let reader = TokenReader(tokens: development.tokens, bytes: UnsafeRawBufferPointer(start: start, count: count))
        _ = reader.firstEscapeError()
        _ = try? reader.value(0)
    }
    guard let json = try? JSONValue.parse(UnsafeRawBufferPointer(start: start, count: count)) else { return 0 }
    // Every value of the record (or the document itself) against every field type.
    var values: [JSONValue] = [json]
    if let fields = json["fields"]?.objectValue {
        for (_, v) in fields { values.append(v["value"] ?? v) }
    }
    for v in values.prefix(64) {
        for f in note.fields { _ = FieldValue.storage(fromWebServices: v, type: f.type) }
    }
    var out: [UInt8] = []
    json.write(to: &out)
    return 0
}

runFuzzer(fuzzRecords)
