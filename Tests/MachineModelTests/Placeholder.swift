import XCTest
final class MachineModelTestsPlaceholder: XCTestCase { func testNothing() {} }
