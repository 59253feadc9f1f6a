// The parts of the SDK the page uses, bundled into one file the page loads from its own origin
// (Discord's proxy refuses anything from outside it).
export { DiscordSDK, DiscordSDKMock, patchUrlMappings } from "@discord/embedded-app-sdk";
