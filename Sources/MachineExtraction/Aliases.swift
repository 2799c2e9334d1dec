import MachineModel

// swift-syntax has its own SourceLocation; in this module the name means the model's.
typealias SourceLocation = MachineModel.SourceLocation
