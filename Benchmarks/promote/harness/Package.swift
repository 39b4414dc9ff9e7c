// swift-tools-version:6.0
import PackageDescription

// The promote benchmark's own timer: loads two schemas once, then times SchemaDiff and
// PromotionPlan alone (the diff's own cost, without parsing), median of several runs.
let package = Package(
    name: "diffbench",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "ckschema", path: "../../..")],
    targets: [
        .executableTarget(name: "diffbench", dependencies: [.product(name: "CKSchema", package: "ckschema")]),
    ],
    swiftLanguageModes: [.v6]
)
