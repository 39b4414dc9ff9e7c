// swift-tools-version:6.0
import PackageDescription

/// Every library target and the executable: a member of a module the file does not import is an
/// error (SE-0444), so a file's imports are what it uses.
let layer: [SwiftSetting] = [.enableUpcomingFeature("MemberImportVisibility")]

let package = Package(
    name: "ckschema",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "CKSchema", targets: ["CKSchema"]),
        // An in-memory CloudKit for an app's unit tests that refuses what production refuses
        // (docs/testing.md). The umbrella re-exports it too (docs/architecture.md says why
        // that is harmless); an app's test target links this product alone.
        .library(name: "CKSchemaTesting", targets: ["CKSchemaTesting"]),
        .executable(name: "ckschema", targets: ["ckschema"]),
    ],
    // One target per layer of docs/architecture.md, each depending on exactly the targets its
    // files import (no re-exports below the umbrella `CKSchema`; MemberImportVisibility makes a
    // member of an unimported module an error): LayeringTests holds this graph to the document,
    // every edge to an import that uses it, and every import to an edge.
    targets: [
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),
        .systemLibrary(
            name: "CSQLite",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite3"])]
        ),
        .target(name: "CKSchemaModel", dependencies: [], swiftSettings: layer),
        .target(name: "CKSchemaDiagnostics", dependencies: ["CKSchemaModel"], swiftSettings: layer),
        .target(name: "CKSchemaWire", dependencies: ["CKSchemaModel"], swiftSettings: layer),
        .target(name: "CKSchemaCKDB", dependencies: ["CKSchemaDiagnostics", "CKSchemaModel"], swiftSettings: layer),
        .target(name: "CKSchemaCoreData", dependencies: ["CKSchemaDiagnostics", "CKSchemaModel"], swiftSettings: layer),
        .target(name: "CKSchemaPredicate", dependencies: ["CKSchemaDiagnostics", "CKSchemaModel"], swiftSettings: layer),
        .target(name: "CKSchemaSwift", dependencies: ["CKSchemaDiagnostics", "CKSchemaModel"], swiftSettings: layer),
        .target(name: "CKSchemaYAML", dependencies: ["CKSchemaDiagnostics", "CKSchemaModel", "CYAML"], swiftSettings: layer),
        .target(name: "CKSchemaCKTool", dependencies: ["CKSchemaCKDB", "CKSchemaDiagnostics", "CKSchemaModel"], swiftSettings: layer),
        .target(name: "CKSchemaCodegen", dependencies: ["CKSchemaDiagnostics", "CKSchemaModel", "CKSchemaPredicate"], swiftSettings: layer),
        .target(name: "CKSchemaDiff", dependencies: ["CKSchemaCKDB", "CKSchemaCoreData", "CKSchemaDiagnostics", "CKSchemaModel", "CKSchemaYAML"], swiftSettings: layer),
        .target(name: "CKSchemaLinter", dependencies: ["CKSchemaCoreData", "CKSchemaDiagnostics", "CKSchemaModel", "CKSchemaPredicate", "CKSchemaSwift"], swiftSettings: layer),
        .target(name: "CKSchemaRecords", dependencies: ["CKSchemaDiagnostics", "CKSchemaModel", "CKSchemaWire", "CKSchemaYAML"], swiftSettings: layer),
        .target(name: "CKSchemaStore", dependencies: ["CKSchemaDiagnostics", "CKSchemaModel", "CKSchemaWire", "CKSchemaYAML", "CSQLite"], swiftSettings: layer),
        .target(name: "CKSchemaConfig", dependencies: ["CKSchemaCKDB", "CKSchemaCoreData", "CKSchemaDiagnostics", "CKSchemaDiff", "CKSchemaModel", "CKSchemaRecords", "CKSchemaSwift", "CKSchemaYAML"], swiftSettings: layer),
        .target(name: "CKSchemaRuntime", dependencies: ["CKSchemaDiagnostics", "CKSchemaModel", "CKSchemaPredicate", "CKSchemaRecords", "CKSchemaStore", "CKSchemaWire"], swiftSettings: layer),
        .target(name: "CKSchemaScan", dependencies: ["CKSchemaDiagnostics", "CKSchemaLinter", "CKSchemaModel", "CKSchemaPredicate", "CKSchemaSwift"], swiftSettings: layer),
        .target(name: "CKSchemaMigrations", dependencies: ["CKSchemaDiagnostics", "CKSchemaDiff", "CKSchemaModel", "CKSchemaPredicate", "CKSchemaRuntime", "CKSchemaStore", "CKSchemaYAML"], swiftSettings: layer),
        .target(name: "CKSchemaTesting", dependencies: ["CKSchemaConfig", "CKSchemaDiagnostics", "CKSchemaModel", "CKSchemaPredicate", "CKSchemaRecords", "CKSchemaRuntime", "CKSchemaStore", "CKSchemaYAML"], swiftSettings: layer),
        .target(name: "CKSchemaProduction", dependencies: ["CKSchemaCKDB", "CKSchemaCKTool", "CKSchemaDiagnostics", "CKSchemaDiff", "CKSchemaLinter", "CKSchemaMigrations", "CKSchemaModel", "CKSchemaStore", "CKSchemaYAML"], swiftSettings: layer),
        .target(name: "CKSchemaCheck", dependencies: ["CKSchemaCKDB", "CKSchemaCKTool", "CKSchemaCodegen", "CKSchemaConfig", "CKSchemaCoreData", "CKSchemaDiagnostics", "CKSchemaDiff", "CKSchemaLinter", "CKSchemaMigrations", "CKSchemaModel", "CKSchemaProduction", "CKSchemaRecords", "CKSchemaRuntime", "CKSchemaScan", "CKSchemaStore", "CKSchemaSwift", "CKSchemaYAML"], swiftSettings: layer),
        .target(name: "CKSchema", dependencies: ["CKSchemaModel", "CKSchemaDiagnostics", "CKSchemaWire", "CKSchemaCKDB", "CKSchemaCoreData", "CKSchemaPredicate", "CKSchemaSwift", "CKSchemaYAML", "CKSchemaCKTool", "CKSchemaCodegen", "CKSchemaDiff", "CKSchemaLinter", "CKSchemaRecords", "CKSchemaStore", "CKSchemaConfig", "CKSchemaRuntime", "CKSchemaScan", "CKSchemaMigrations", "CKSchemaTesting", "CKSchemaProduction", "CKSchemaCheck"], swiftSettings: layer),
        .executableTarget(
            name: "ckschema",
            dependencies: ["CKSchema"],
            swiftSettings: layer
        ),
        // The executable is a dependency so that the binary the end-to-end tests run is built
        // from the same sources as the library they test, never a stale one.
        .testTarget(
            name: "CKSchemaTests",
            dependencies: ["CKSchema", "ckschema"],
            resources: []
        ),
    ],
    swiftLanguageModes: [.v6]
)

// SwiftPM plugins (docs/integrations.md): `swift package ckschema <command>` in an app's
// package, a build-tool plugin that lints the package's schemas on every build, and one that
// generates typed Swift from them.
package.products += [
    .plugin(name: "CKSchemaCommand", targets: ["CKSchemaCommand"]),
    .plugin(name: "CKSchemaLint", targets: ["CKSchemaLint"]),
    .plugin(name: "CKSchemaGenerate", targets: ["CKSchemaGenerate"]),
]
package.targets += [
    .plugin(
        name: "CKSchemaCommand",
        capability: .command(intent: .custom(verb: "ckschema", description: "Run ckschema (check, lint, fmt, pull, ...) in this package")),
        dependencies: ["ckschema"]
    ),
    .plugin(name: "CKSchemaLint", capability: .buildTool(), dependencies: ["ckschema"]),
    // Typed Swift from the schema, regenerated on every build (docs/codegen.md).
    .plugin(name: "CKSchemaGenerate", capability: .buildTool(), dependencies: ["ckschema"]),
]
