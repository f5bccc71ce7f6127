import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';

/** Swagger UI at /docs and the JSON at /docs-json. */
export function setupSwagger(app: INestApplication): void {
  const config = new DocumentBuilder()
    .setTitle('Video generation gateway')
    .setDescription(
      'Asynchronous video generation (flat OpenAI-style `/v1/videos` and unified `/v1/video/generations`), ' +
        'real-person verification, and the admin API. Video endpoints take `Authorization: Bearer <API_KEY>`; ' +
        'the admin API takes `Authorization: Bearer <ADMIN_TOKEN>`.',
    )
    .setVersion('1.0')
    // The order Swagger UI shows the groups in: what a newcomer calls first comes first.
    .addTag('videos', 'flat, OpenAI-style video tasks (/v1/videos)')
    .addTag('video generations (unified form)', 'the unified-wrapper task API (/v1/video/generations)')
    .addTag('models', "the models a key may use (OpenAI's GET /v1/models); GET /v1/videos/models has their capabilities and prices")
    .addTag('usage', "what the account's ended tasks delivered and cost it, for invoicing (/v1/usage)")
    .addTag('webhooks', 'where task ends are delivered')
    .addTag('verification', 'real-person verification and its portrait assets')
    .addTag('console', "the web console's own API")
    .addTag('admin', 'the admin API (ADMIN_TOKEN)')
    .addTag('health')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'opaque', description: 'API key (sk-...)' }, 'api-key')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'opaque', description: 'ADMIN_TOKEN' }, 'admin')
    .build();
  const document = SwaggerModule.createDocument(app, config);
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs-json', customSiteTitle: 'Video gateway API' });
}
