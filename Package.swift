// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ckschema",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "CKSchema", targets: ["CKSchema"]),
        .executable(name: "ckschema", targets: ["ckschema"]),
    ],
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
        .target(
            name: "CKSchema",
            dependencies: ["CYAML", "CSQLite"]
        ),
        .executableTarget(
            name: "ckschema",
            dependencies: ["CKSchema"]
        ),
        .testTarget(
            name: "CKSchemaTests",
            dependencies: ["CKSchema"],
            resources: []
        ),
    ],
    swiftLanguageModes: [.v6]
)

// SwiftPM plugins (docs/integrations.md): `swift package ckschema <command>` in an app's
// package, and a build-tool plugin that lints the package's schemas on every build.
package.products += [
    .plugin(name: "CKSchemaCommand", targets: ["CKSchemaCommand"]),
    .plugin(name: "CKSchemaLint", targets: ["CKSchemaLint"]),
]
package.targets += [
    .plugin(
        name: "CKSchemaCommand",
        capability: .command(intent: .custom(verb: "ckschema", description: "Run ckschema (check, lint, fmt, pull, ...) in this package")),
        dependencies: ["ckschema"]
    ),
    .plugin(name: "CKSchemaLint", capability: .buildTool(), dependencies: ["ckschema"]),
]
