// swift-tools-version:6.0
// libFuzzer targets over ckschema's readers (docs/fuzzing.md). A package of its own, so that
// `swift build` and `swift test` of the main package never see the fuzzer flags:
//
//   swift build --package-path Fuzz -c debug -Xswiftc -sanitize=fuzzer,address
//
// The targets use `@testable import CKSchema` (debug builds are testable) to reach the
// readers below the command line: the record checker and the store's value conversion.
import Foundation
import PackageDescription

// A path dependency is known by its folder's name (`ckschema` in a clone, a worktree's own
// name elsewhere): read it from where this manifest sits.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
let identity = root.lastPathComponent.lowercased()

func fuzzTarget(_ name: String) -> Target {
    .executableTarget(name: name, dependencies: ["FuzzDriver", .product(name: "CKSchema", package: identity)])
}

let package = Package(
    name: "ckschema-fuzz",
    platforms: [.macOS(.v13)],
    dependencies: [.package(path: "..")],
    targets: [.target(name: "FuzzDriver")] + ["FuzzYAMLLint", "FuzzYAMLEvents", "FuzzCKDB", "FuzzRecords", "FuzzMigration", "FuzzFmt", "FuzzCktoolOutput", "FuzzCoreData", "FuzzPredicate", "FuzzSwift", "FuzzScan", "FuzzPlist"].map(fuzzTarget),
    swiftLanguageModes: [.v6]
)
