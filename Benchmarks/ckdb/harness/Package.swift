// swift-tools-version:6.0
// A stand-alone harness that times CKDBParser.parse alone (no YAML emission, no file
// writes), for the figures in Benchmarks/RESULTS.md. Built by Benchmarks/ckdb/run.sh.
import PackageDescription

let package = Package(
    name: "ckdb-parse-bench",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "ckschema", path: "../../..")],
    targets: [
        .executableTarget(name: "ckdb-parse-bench", dependencies: [.product(name: "CKSchema", package: "ckschema")]),
    ],
    swiftLanguageModes: [.v6]
)
