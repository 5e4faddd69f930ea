// Tests of the glyph PBF generator land here.
import XCTest
