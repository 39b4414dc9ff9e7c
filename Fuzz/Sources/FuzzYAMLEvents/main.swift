import Foundation
import FuzzDriver
@testable import CKSchemaDiagnostics
@testable import CKSchemaYAML
@testable import CKSchemaConfig

/// The canonical scanner against libyaml: for every input the scanner takes, libyaml must
/// take it too and give the same events (kinds, values, styles, flow flags, marks). The same
/// for `fmt`'s text of every input that loads: that is the subset the scanner exists for, so
/// the fuzzer's mutations of a schema reach it through canonical text with odd names and
/// values in it. Where the scanner declines, nothing is asserted (libyaml reads the file).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzYAMLEvents(_ start: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let data = Data(bytes: UnsafeRawPointer(start), count: count)
    agree(data)
    if let file = try? SchemaSource.parseYAML(data, file: "fuzz.yaml") {
        agree(Data(SchemaFormatter.format(file).utf8))
    }
    return 0
}

func agree(_ data: Data) {
    guard let fast = YAMLEvents.canonical(data) else { return }
    guard let general = YAMLEvents.libyaml(data) else { fatalError("the canonical scanner took a text libyaml refuses") }
    if let difference = YAMLEvents.difference(libyaml: general, canonical: fast) { fatalError(difference) }
}

runFuzzer(fuzzYAMLEvents)
