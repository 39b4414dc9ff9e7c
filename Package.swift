// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ckschema",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "CKSchema", targets: ["CKSchema"]),
        .executable(name: "ckschema", targets: ["ckschema"]),
    ],
    // One target per layer of docs/architecture.md, each depending only on the layers directly
    // below it (peers on one row never see each other): the compiler refuses an import against
    // the picture, and LayeringTests checks this graph against the document.
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
        .target(name: "CKSchemaModel", dependencies: []),
        .target(name: "CKSchemaDiagnostics", dependencies: ["CKSchemaModel"]),
        .target(name: "CKSchemaYAML", dependencies: ["CKSchemaDiagnostics", "CYAML"]),
        .target(name: "CKSchemaCKDB", dependencies: ["CKSchemaDiagnostics"]),
        .target(name: "CKSchemaCoreData", dependencies: ["CKSchemaDiagnostics"]),
        .target(name: "CKSchemaPredicate", dependencies: ["CKSchemaDiagnostics"]),
        .target(name: "CKSchemaSwift", dependencies: ["CKSchemaDiagnostics"]),
        .target(name: "CKSchemaLinter", dependencies: ["CKSchemaYAML", "CKSchemaCKDB", "CKSchemaCoreData", "CKSchemaPredicate", "CKSchemaSwift"]),
        .target(name: "CKSchemaDiff", dependencies: ["CKSchemaLinter"]),
        .target(name: "CKSchemaConfig", dependencies: ["CKSchemaDiff"]),
        .target(name: "CKSchemaRecords", dependencies: ["CKSchemaConfig"]),
        .target(name: "CKSchemaPull", dependencies: ["CKSchemaConfig"]),
        .target(name: "CKSchemaStore", dependencies: ["CKSchemaRecords", "CKSchemaPull", "CSQLite"]),
        .target(name: "CKSchemaRuntime", dependencies: ["CKSchemaStore"]),
        .target(name: "CKSchemaMigrations", dependencies: ["CKSchemaRuntime"]),
        .target(name: "CKSchemaScan", dependencies: ["CKSchemaConfig"]),
        .target(name: "CKSchemaCodegen", dependencies: ["CKSchemaConfig"]),
        .target(name: "CKSchemaCheck", dependencies: ["CKSchemaMigrations", "CKSchemaScan", "CKSchemaCodegen"]),
        .target(name: "CKSchema", dependencies: ["CKSchemaCheck"]),
        .executableTarget(
            name: "ckschema",
            dependencies: ["CKSchema"]
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
