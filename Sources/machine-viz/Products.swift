import Foundation
import MachineAnalysis
import MachineConfiguration
import MachineExtraction
import MachineModel

/// Struct states explored as the product of their machine fields, with the invariants stated in the
/// code and in the configuration. Shared by `lint` (findings) and `render --product` (drawings).
enum Products {
    struct Explored {
        var product: ProductMachine
        var result: ProductExplorer.Result
    }

    /// Explores every product. A configuration invariant that names a field or value the product does
    /// not have is a `LintPipeline.Failure`; one stated in the code is a diagnostic.
    /// Products are explored on `jobs` threads; results and diagnostics come in product order.
    static func explore(_ products: [ProductMachine], configuration: Configuration, jobs: Int = 1) throws -> (explored: [Explored], diagnostics: [Diagnostic]) {
        let explorer = ProductExplorer(budget: configuration.productBudget ?? ProductExplorer.defaultBudget)
        var explored: [Explored] = []
        var diagnostics: [Diagnostic] = []
        let file = configuration.file ?? Configuration.fileName
        var checked: [(product: ProductMachine, invariants: [Invariant], diagnostics: [Diagnostic])] = []
        for product in products {
            var diagnostics: [Diagnostic] = []
            var invariants: [Invariant] = []
            for text in product.invariants {
                guard let invariant = try? Invariant(text) else { continue }
                if let problem = ProductExplorer.check(invariant, against: product) {
                    diagnostics.append(Diagnostic(severity: .warning, message: "\(problem); the invariant is left out", location: product.location))
                } else {
                    invariants.append(invariant)
                }
            }
            for invariant in configuration.invariants(for: product) {
                if let problem = ProductExplorer.check(invariant, against: product) {
                    throw LintPipeline.Failure(message: "\(file): error: \(problem)")
                }
                invariants.append(invariant)
            }
            checked.append((product, invariants.uniqued(), diagnostics))
        }
        let results = Parallel.map(checked, jobs: jobs) { explorer.explore($0.product, invariants: $0.invariants) }
        for ((product, invariants, own), result) in zip(checked, results) {
            diagnostics += own
            if let message = result.budgetMessage {
                diagnostics.append(Diagnostic(severity: .warning, message: message, location: product.location))
            }
            if let why = result.unexplored, !invariants.isEmpty {
                diagnostics.append(Diagnostic(severity: .warning, message: "\(product.name): invariants not checked: \(why)", location: product.location))
            }
            explored.append(Explored(product: product, result: result))
        }
        return (explored, diagnostics)
    }
}
