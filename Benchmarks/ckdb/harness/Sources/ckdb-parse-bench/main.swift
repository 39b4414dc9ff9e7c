import CKSchema
import Foundation

// usage: ckdb-parse-bench FILE.ckdb [RUNS]
// Prints the best and median time of CKDBParser.parse over RUNS runs, and the throughput.
let args = CommandLine.arguments
guard args.count >= 2, let data = FileManager.default.contents(atPath: args[1]) else {
    FileHandle.standardError.write(Data("usage: ckdb-parse-bench FILE.ckdb [RUNS]\n".utf8))
    exit(2)
}
let runs = args.count > 2 ? Int(args[2]) ?? 10 : 10
var times: [Double] = []
var types = 0
for _ in 0..<runs {
    let start = DispatchTime.now().uptimeNanoseconds
    let schema = try CKDBParser.parse(data, file: args[1])
    times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    types = schema.recordTypes.count
}
times.sort()
let mb = Double(data.count) / 1_000_000
let best = times[0], median = times[times.count / 2]
print(String(format: "parse %.2f MB, %d record types: best %.1f ms (%.0f MB/s), median %.1f ms (%.0f MB/s)",
             mb, types, best * 1000, mb / best, median * 1000, mb / median))
