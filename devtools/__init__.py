"""Developer tools that are not part of the bot: never shipped in the Lambda package."""
