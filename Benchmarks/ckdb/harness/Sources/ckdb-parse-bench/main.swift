import CKSchema
import Foundation

// usage: ckdb-parse-bench FILE.ckdb [RUNS]
// Prints the best and median time over RUNS runs of each stage of `ckschema import`, in
// process: CKDBParser.parse, CKDBExporter.cktoolForm, and the canonical YAML emission.
let args = CommandLine.arguments
guard args.count >= 2, let data = FileManager.default.contents(atPath: args[1]) else {
    FileHandle.standardError.write(Data("usage: ckdb-parse-bench FILE.ckdb [RUNS]\n".utf8))
    exit(2)
}
let runs = args.count > 2 ? Int(args[2]) ?? 10 : 10
var times: [String: [Double]] = [:]
var types = 0
@MainActor func timed<T>(_ stage: String, _ body: () throws -> T) rethrows -> T {
    let start = DispatchTime.now().uptimeNanoseconds
    let result = try body()
    times[stage, default: []].append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    return result
}
for _ in 0..<runs {
    let schema = try timed("parse") { try CKDBParser.parse(data, file: args[1]) }
    types = schema.recordTypes.count
    let form = timed("cktoolForm") { CKDBExporter.cktoolForm(schema) }
    let yaml = timed("emit") { form.canonicalYAML }
    precondition(!yaml.isEmpty)
}
let mb = Double(data.count) / 1_000_000
print(String(format: "%.2f MB, %d record types", mb, types))
for stage in ["parse", "cktoolForm", "emit"] {
    let t = times[stage, default: [0]].sorted()
    let best = t[0], median = t[t.count / 2]
    print(stage.padding(toLength: 11, withPad: " ", startingAt: 0) + String(format: "best %6.1f ms (%4.0f MB/s), median %6.1f ms (%4.0f MB/s)",
                 best * 1000, mb / best, median * 1000, mb / median))
}
