/* bare-peer has no public interface; SwiftPM wants an include folder for a C target. */
