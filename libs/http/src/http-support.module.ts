import { Module } from '@nestjs/common';
import { AccessModule } from '@crawlhub/access';
import { RequestPrincipal } from './request-principal';

@Module({ imports: [AccessModule], providers: [RequestPrincipal], exports: [RequestPrincipal] })
export class HttpSupportModule {}
