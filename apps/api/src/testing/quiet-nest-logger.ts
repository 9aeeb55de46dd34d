import { Logger } from '@nestjs/common';

// What a class logs through Nest's default logger outside an application (a store's start, an
// unreachable Redis) would bury a failure's output: a test that means a log line spies on it.
// An application a test starts logs through its own logger (createApp's logLevel).
Logger.overrideLogger(false);
